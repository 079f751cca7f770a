import Foundation

/// Measures the breathing rate of a recorded night (audio and/or accelerometer files), exactly as a live session
/// would: the same front end and estimator, fed one second at a time.
public enum BreathingAnalysis {
    /// Analyses recordings: an audio file (anything libsndfile reads; stereo is mixed down; any rate, resampled
    /// to 16 kHz) and/or an accelerometer CSV (`timestamp,x,y,z`).
    ///
    /// - Parameters:
    ///   - audio: The recording, or nil.
    ///   - accelerometer: The accelerometer CSV, or nil.
    ///   - startTime: The time of the first audio sample (relative CSV timestamps count from it).
    ///   - options: Window and periodicity settings; the defaults are a live session's.
    /// - Returns: The breathing rates, one every half window where breathing is periodic enough, in time order.
    /// - Throws: `SleepCycleSdkError.invalidInput` for a missing, unreadable or malformed file, or when both are nil;
    ///   `.invalidConfiguration` for options out of range.
    public static func analyze(
        audio: URL?, accelerometer: URL? = nil,
        startTime: Date = Date(timeIntervalSince1970: 0),
        options: BreathingAnalysisOptions = BreathingAnalysisOptions()
    ) throws -> [BreathingRate] {
        guard audio != nil || accelerometer != nil else {
            throw SleepCycleSdkError.invalidInput("breathing: give an audio file, an accelerometer file or both")
        }
        var configuration = BreathingRateConfiguration()
        configuration.peakFraction = options.peakFraction
        configuration.alternationThreshold = options.alternationThreshold
        configuration.harmonicFraction = options.harmonicFraction
        configuration.neighbourWindows = options.neighbourWindows
        configuration.minimumScore = options.minimumScore
        let windowSeconds = options.windowSeconds
        if windowSeconds != configuration.windowSeconds {
            configuration.windowSeconds = windowSeconds
            configuration.hopSeconds = windowSeconds / 2
            configuration.minimumWindowSeconds = windowSeconds * 0.75
            configuration.minimumBpm = max(configuration.minimumBpm, 120 / windowSeconds)
        }
        configuration.useAudio = audio != nil
        configuration.useAccelerometer = accelerometer != nil
        let estimator = try BreathingRateEstimator(sessionId: UUID(), configuration: configuration)
        var motion = try accelerometer.map { try MotionFeed(url: $0, startTime: startTime) }
        var rates: [BreathingRate] = []
        if let audio {
            let reader = try AudioFileReader(url: audio)
            let rate = AudioBatch.sampleRate
            let resampler = try Resampler(inputRate: reader.sampleRate, outputRate: Double(rate), channelCount: 1)
            let frontEnd = try FrontEnd()
            var pending: [Float] = []
            var sent = 0
            func send(_ count: Int) throws {
                let time = startTime.addingTimeInterval(Double(sent) / Double(rate))
                let end = time.addingTimeInterval(Double(count) / Double(rate))
                if var feed = motion {
                    rates += estimator.process(accelerometer: try feed.readings(before: end))
                    motion = feed
                }
                let samples = Array(pending.prefix(count))
                rates += estimator.process(
                    AudioBatch(
                        firstSampleIndex: Int64(sent), startTime: time, samples: samples,
                        features: frontEnd.process(samples)))
                pending.removeFirst(count)
                sent += count
            }
            while var mono = try reader.readMono(maxFrames: rate) {
                NonFiniteSampleRepair.zero(&mono)  // a NaN would spread through every window it enters
                pending += try resampler.process(mono)
                while pending.count >= rate { try send(rate) }
            }
            pending += try resampler.flush()
            while pending.count >= rate { try send(rate) }
            if !pending.isEmpty { try send(pending.count) }
            guard sent > 0 else { throw SleepCycleSdkError.invalidInput("\(audio.path): no audio samples") }
        }
        if var feed = motion { rates += estimator.process(accelerometer: try feed.readings(before: .distantFuture)) }
        rates += estimator.finish()
        return rates
    }
}

/// Accelerometer readings from a CSV file, handed out by time.
private struct MotionFeed {
    private let reader: AccelerometerCSVReader
    private var lookahead: AccelerometerSample?

    init(url: URL, startTime: Date) throws {
        do {
            reader = try AccelerometerCSVReader(url: url, startTime: startTime)
        } catch {
            throw error.sdkError
        }
    }

    /// The readings earlier than `end` not yet handed out.
    mutating func readings(before end: Date) throws -> [AccelerometerSample] {
        var out: [AccelerometerSample] = []
        while true {
            var next = lookahead
            if next == nil {
                do { next = try reader.next() } catch { throw error.sdkError }
            }
            guard let sample = next else { break }
            if sample.timestamp >= end {
                lookahead = sample
                break
            }
            lookahead = nil
            out.append(sample)
        }
        return out
    }
}
