import Foundation

/// Measures the A-weighted sound level of a recording, as a class-1 sound level meter would (IEC 61672-1
/// A-weighting at the file's own sample rate; one-second Hann windows every half second).
public enum SoundLevelAnalysis {
    /// Analyses an audio file (anything libsndfile reads; mono or stereo; any rate), streamed block by block.
    ///
    /// - Parameters:
    ///   - file: the recording.
    ///   - calibration: how dBFS maps to dB SPL; the typical MEMS microphone (+120 dB) by default.
    /// - Returns: the per-frame levels, Leq, min and max in dB SPL (NaN or infinite samples count as silence), and
    ///   the counts of repaired and clipped samples.
    /// - Throws: `SleepCycleSdkError.invalidInput` when the file is missing, unreadable, corrupt or empty.
    public static func analyze(file: URL, calibration: LevelCalibration = .default) throws -> SoundLevelReport {
        let reader = try AudioFileReader(url: file)
        let channels = reader.channelCount
        let meters = try (0..<channels).map { _ in try SoundLevelMeter(sampleRate: reader.sampleRate) }
        var accumulator = FrameAccumulator(channelCount: channels)
        var framesRead = 0
        var repaired = 0
        var clipping = ClippingMonitor()
        while var block = try reader.read(maxFrames: 16_384) {  // under glibc's mmap threshold
            framesRead += block.count / channels
            repaired += NonFiniteSampleRepair.zero(&block)
            clipping.add(block, channelCount: channels)
            for (channel, meter) in meters.enumerated() {
                let samples =
                    channels == 1
                    ? block
                    : stride(from: channel, to: block.count, by: channels).map {
                        block[$0]
                    }
                accumulator.add(meter.process(samples), channel: channel)
            }
        }
        for (channel, meter) in meters.enumerated() {
            accumulator.add(meter.flush().map { [$0] } ?? [], channel: channel)
        }
        guard framesRead > 0 else { throw SleepCycleSdkError.invalidInput("\(file.path): no audio samples") }
        var report = makeReport(
            meanSquares: accumulator.meanSquares, meter: meters[0], channelCount: channels,
            duration: Double(framesRead) / reader.sampleRate, calibration: calibration)
        report.repairedSampleCount = repaired
        report.clippedSampleCount = clipping.clippedSamples
        return report
    }

    /// Analyses mono samples already in memory.
    ///
    /// - Parameters:
    ///   - samples: the signal, in −1...1.
    ///   - sampleRate: its rate (Hz).
    ///   - calibration: how dBFS maps to dB SPL.
    /// - Returns: the per-frame levels, Leq, min and max in dB SPL (NaN or infinite samples count as silence).
    /// - Throws: `SleepCycleSdkError.invalidConfiguration` for a bad rate; `.invalidInput` for no samples.
    public static func analyze(
        samples: [Float], sampleRate: Double, calibration: LevelCalibration = .default
    )
        throws -> SoundLevelReport
    {
        let meter = try SoundLevelMeter(sampleRate: sampleRate)
        guard !samples.isEmpty else { throw SleepCycleSdkError.invalidInput("sound level: no audio samples") }
        var clean = samples
        let repaired = NonFiniteSampleRepair.zero(&clean)
        var clipping = ClippingMonitor()
        clipping.add(clean, channelCount: 1)
        var frames = meter.process(clean)
        if let last = meter.flush() { frames.append(last) }
        var report = makeReport(
            meanSquares: frames.map(\.aWeighted), meter: meter, channelCount: 1,
            duration: Double(samples.count) / sampleRate, calibration: calibration)
        report.repairedSampleCount = repaired
        report.clippedSampleCount = clipping.clippedSamples
        return report
    }

    private static func makeReport(
        meanSquares: [Double], meter: SoundLevelMeter, channelCount: Int, duration: Double,
        calibration: LevelCalibration
    ) -> SoundLevelReport {
        let levels = meanSquares.map { decibelsSpl($0, calibration) }
        let energyMean = meanSquares.reduce(0, +) / Double(Swift.max(1, meanSquares.count))
        return SoundLevelReport(
            leq: decibelsSpl(energyMean, calibration),
            min: levels.min() ?? decibelsSpl(0, calibration),
            max: levels.max() ?? decibelsSpl(0, calibration),
            frames: levels,
            frameDuration: Double(meter.hopSize) / meter.sampleRate,
            windowDuration: Double(meter.windowSize) / meter.sampleRate,
            sampleRate: meter.sampleRate,
            channelCount: channelCount,
            duration: duration,
            calibrationOffsetDb: calibration.offsetDb)
    }

    /// dB SPL of a mean square (full-scale sine = 0 dBFS), floored at −157 dBFS.
    static func decibelsSpl(_ meanSquare: Double, _ calibration: LevelCalibration) -> Double {
        10 * log10(Swift.max(meanSquare, 1e-16) * 2) + calibration.offsetDb
    }
}

/// Collects per-channel frame mean squares and averages them across channels.
private struct FrameAccumulator {
    private var perChannel: [[Double]]

    init(channelCount: Int) {
        perChannel = Array(repeating: [], count: channelCount)
    }

    mutating func add(_ frames: [SoundLevelMeter.Frame], channel: Int) {
        perChannel[channel].append(contentsOf: frames.map(\.aWeighted))
    }

    /// The energy mean over channels of each frame (every channel has the same frame count).
    var meanSquares: [Double] {
        guard let first = perChannel.first else { return [] }
        return first.indices.map { index in
            perChannel.reduce(0) { $0 + $1[index] } / Double(perChannel.count)
        }
    }
}
