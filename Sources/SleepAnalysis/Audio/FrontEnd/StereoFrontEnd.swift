import Foundation

/// Features of both channels of a stereo stream plus the cues between them, on one frame grid.
///
/// Feeds interleaved 16 kHz stereo (primary, secondary, …) to one `FrontEnd` per channel and to a
/// `StereoAnalyzer` with the same hop, so frame `i` of `primary`, `secondary` and `cues` all end at sample
/// `(i + 1) * hopSize`. Not thread-safe: use one instance from one task.
final class StereoFrontEnd {
    /// One call's output.
    struct Block: Sendable {
        /// Features of the primary (left) channel.
        var primary: FeatureBlock
        /// Features of the secondary (right) channel.
        var secondary: FeatureBlock
        /// Time and level difference per frame.
        var cues: [StereoCues]
    }

    private let primary: FrontEnd
    private let secondary: FrontEnd
    private let stereo: StereoAnalyzer

    /// Sets up both channels' front ends and the stereo analysis.
    ///
    /// - Parameters:
    ///   - configuration: the per-channel front end (its rate and hop are used for the stereo analysis too).
    ///   - stereoFrameSize: samples per GCC-PHAT frame.
    ///   - maxDelaySeconds: the largest time difference searched.
    /// - Throws: `SleepCycleSdkError.invalidConfiguration` for a bad configuration.
    init(
        configuration: FrontEndConfiguration = .standard, stereoFrameSize: Int = 1_024, maxDelaySeconds: Double = 0.01
    )
        throws
    {
        primary = try FrontEnd(configuration: configuration)
        secondary = try FrontEnd(configuration: configuration)
        stereo = try StereoAnalyzer(
            sampleRate: configuration.sampleRate, frameSize: stereoFrameSize, hopSize: configuration.hopSize,
            maxDelaySeconds: maxDelaySeconds)
    }

    /// Feeds interleaved stereo samples and returns the frames they complete on both channels.
    ///
    /// - Parameter interleaved: the next samples, primary first.
    /// - Returns: features per channel and the cues, the same number of frames in each.
    /// - Throws: `SleepCycleSdkError.invalidInput` when the count is odd.
    func process(interleaved: [Float]) throws -> Block {
        guard interleaved.count % 2 == 0 else {
            throw SleepCycleSdkError.invalidInput("stereo front end: \(interleaved.count) samples is not whole frames")
        }
        let left = stride(from: 0, to: interleaved.count, by: 2).map { interleaved[$0] }
        let right = stride(from: 1, to: interleaved.count, by: 2).map { interleaved[$0] }
        return Block(
            primary: primary.process(left), secondary: secondary.process(right),
            cues: try stereo.process(primary: left, secondary: right))
    }
}
