import Foundation

/// Streams a stereo pair and gives, per frame, the inter-channel time difference (GCC-PHAT) and level difference.
///
/// Frames follow the front end's grid: frame `i` ends at sample `(i + 1) * hopSize` and covers the last
/// `frameSize` samples of each channel (zeros before the stream start). Backed by `DSPStereoHandle` (`sa_stereo`:
/// Hann window, linear correlation through one FFTW plan, parabolic sub-sample peak). Per-channel features come
/// from one `FrontEnd` per channel. Not thread-safe: use one instance from one task.
final class StereoAnalyzer {
    /// Samples per second of each channel.
    let sampleRate: Double
    /// Samples per analysis frame.
    let frameSize: Int
    /// Samples between frame ends.
    let hopSize: Int

    private let handle: DSPStereoHandle
    private var primaryHistory: [Float]
    private var secondaryHistory: [Float]
    private var sinceFrame = 0
    private var framesDone: Int64 = 0

    /// Sets up the analysis.
    ///
    /// - Parameters:
    ///   - sampleRate: samples per second of each channel.
    ///   - frameSize: samples per frame (1024 = 64 ms at 16 kHz).
    ///   - hopSize: samples between frames (160 = 10 ms at 16 kHz, the front end's hop).
    ///   - maxDelaySeconds: the largest time difference searched (the microphones' spacing over the speed of
    ///     sound, plus margin); clamped to the frame length.
    /// - Throws: `SleepCycleSdkError.invalidConfiguration` for a bad rate, size or delay.
    init(
        sampleRate: Double = 16_000, frameSize: Int = 1_024, hopSize: Int = 160, maxDelaySeconds: Double = 0.01
    ) throws {
        guard frameSize >= 4, hopSize >= 1 else {
            throw SleepCycleSdkError.invalidConfiguration("stereo analysis: frame size ≥ 4 and hop ≥ 1 expected")
        }
        self.sampleRate = sampleRate
        self.frameSize = frameSize
        self.hopSize = hopSize
        primaryHistory = [Float](repeating: 0, count: frameSize)
        secondaryHistory = [Float](repeating: 0, count: frameSize)
        do throws(DSPError) {
            handle = try DSPStereoHandle(sampleRate: sampleRate, frameSize: frameSize, maxDelaySeconds: maxDelaySeconds)
        } catch {
            throw error.sdkError
        }
    }

    /// Feeds interleaved stereo frames (primary, secondary, primary, …) and returns the cues of completed frames.
    ///
    /// - Parameter interleaved: the next samples of the stream.
    /// - Returns: one `StereoCues` per completed frame.
    /// - Throws: `SleepCycleSdkError.invalidInput` when the count is odd.
    func process(interleaved: [Float]) throws -> [StereoCues] {
        guard interleaved.count % 2 == 0 else {
            throw SleepCycleSdkError.invalidInput("stereo analysis: \(interleaved.count) samples is not whole frames")
        }
        let primary = stride(from: 0, to: interleaved.count, by: 2).map { interleaved[$0] }
        let secondary = stride(from: 1, to: interleaved.count, by: 2).map { interleaved[$0] }
        return try process(primary: primary, secondary: secondary)
    }

    /// Feeds the next samples of both channels and returns the cues of completed frames.
    ///
    /// - Parameters:
    ///   - primary: the primary (left) channel.
    ///   - secondary: the secondary (right) channel, as many samples as `primary`.
    /// - Returns: one `StereoCues` per completed frame.
    /// - Throws: `SleepCycleSdkError.invalidInput` when the channels differ in length.
    func process(primary: [Float], secondary: [Float]) throws -> [StereoCues] {
        guard primary.count == secondary.count else {
            throw SleepCycleSdkError.invalidInput(
                "stereo analysis: channels differ in length (\(primary.count) vs \(secondary.count))")
        }
        var cues: [StereoCues] = []
        var position = 0
        while position < primary.count {
            let take = min(hopSize - sinceFrame, primary.count - position)
            Self.append(primary[position..<(position + take)], to: &primaryHistory)
            Self.append(secondary[position..<(position + take)], to: &secondaryHistory)
            position += take
            sinceFrame += take
            if sinceFrame == hopSize {
                cues.append(try analyzeFrame())
                sinceFrame = 0
            }
        }
        return cues
    }

    private func analyzeFrame() throws -> StereoCues {
        let result: DSPStereoHandle.Cues
        do throws(DSPError) {
            result = try handle.analyze(primary: primaryHistory, secondary: secondaryHistory)
        } catch {
            throw error.sdkError
        }
        defer { framesDone += 1 }
        return StereoCues(
            frameIndex: framesDone, delaySeconds: result.delaySeconds, confidence: result.confidence,
            levelDifferenceDb: result.levelDifferenceDb)
    }

    /// Shifts `samples` into the end of a fixed-length history.
    private static func append(_ samples: ArraySlice<Float>, to history: inout [Float]) {
        let size = history.count
        if samples.count >= size {
            history.replaceSubrange(0..<size, with: samples.suffix(size))
        } else {
            history.removeFirst(samples.count)
            history.append(contentsOf: samples)
        }
    }
}
