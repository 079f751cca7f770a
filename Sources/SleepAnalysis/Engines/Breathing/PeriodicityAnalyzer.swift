/// What the periodicity analyser found in one window.
struct PeriodEstimate: Sendable, Hashable {
    /// Breaths per minute.
    var bpm: Double
    /// Mean summary autocorrelation at the chosen period and at twice it (-1...1): how periodic the window is.
    var score: Double
    /// Share of the window's frames that were usable.
    var validFraction: Double
    /// 1, or the factor (2 or 3) the sub-harmonic check divided the period by.
    var harmonic: Int = 1
}

/// Finds the breathing period in a window of frames (audio bands or accelerometer axes)
/// (`DSPBreathPeriodHandle`, that is `sa_breath_period_*`, does the work). Not thread-safe.
final class PeriodicityAnalyzer {
    private let analyser: DSPBreathPeriodHandle
    /// The most frames a window may have.
    let maximumFrames: Int
    /// The most channels a frame may have.
    let maximumChannels: Int

    /// Creates an analyser for windows of up to `maximumFrames` frames.
    ///
    /// With `searchesHalfCycles` (audio: inhale and exhale may both sound) a periodicity shorter than the shortest
    /// breath (down to half of it) counts as two sounds per breath, and twice it is the breathing period. Chest
    /// motion makes one cycle per breath, so the accelerometer's analyser searches the breathing range only.
    ///
    /// - Throws: `SleepCycleSdkError.invalidConfiguration` for an unusable rate range.
    init(
        frameRate: Double, minimumBpm: Double, maximumBpm: Double, peakFraction: Double = 0.7,
        alternationThreshold: Double = 2.0, searchesHalfCycles: Bool, harmonicFraction: Double = 0.6,
        maximumFrames: Int, maximumChannels: Int
    ) throws {
        do throws(DSPError) {
            analyser = try DSPBreathPeriodHandle(
                frameRate: frameRate, minimumBpm: minimumBpm, maximumBpm: maximumBpm, peakFraction: peakFraction,
                alternationThreshold: alternationThreshold, searchesHalfCycles: searchesHalfCycles,
                harmonicFraction: harmonicFraction, maximumFrames: maximumFrames,
                maximumChannels: maximumChannels)
        } catch {
            throw error.sdkError
        }
        self.maximumFrames = maximumFrames
        self.maximumChannels = maximumChannels
    }

    /// Analyses `frames` (frame-major, `channelCount` values each); `valid` marks usable frames (nil: all).
    ///
    /// - Returns: The estimate, or nil when nothing periodic is in range.
    func analyze(frames: [Float], channelCount: Int, valid: [UInt8]? = nil) -> PeriodEstimate? {
        let frameCount = frames.count / max(channelCount, 1)
        guard channelCount >= 1, channelCount <= maximumChannels, frameCount <= maximumFrames,
            valid == nil || valid?.count == frameCount
        else { return nil }
        guard
            let period = try? analyser.analyze(
                frames: frames, frameCount: frameCount, channelCount: channelCount, valid: valid),
            period.found
        else { return nil }
        return PeriodEstimate(
            bpm: period.bpm, score: period.score, validFraction: period.validFraction, harmonic: period.harmonic)
    }

    /// After `analyze` found a period: the last window's periodicity nearest to `bpm` (within `tolerance` of its
    /// period), as a rate and score; nil when the window has no peak there.
    func rate(near bpm: Double, tolerance: Double) -> (bpm: Double, score: Double)? {
        analyser.rate(near: bpm, tolerance: tolerance)
    }
}
