import Foundation

/// Listens to an analysis (`SleepCycleSdk.startAnalysis(eventListeners:)`) and keeps the A-weighted sound level
/// of every analysed frame as one Leq per clock minute, for the night report's sound-level chart. Nothing is
/// measured twice: these are the levels the analysis computes anyway.
public final class SoundLevelCollector: AudioEventListener, @unchecked Sendable {
    // Written on the analysis thread, read after the session stopped; the lock keeps both apart.
    private let lock = NSLock()
    private var energies: [Int: (sum: Double, count: Int)] = [:]

    /// Creates a collector with nothing measured.
    public init() {}

    /// Adds a batch's levels, the frames spread evenly over the batch's time.
    public func onAudioAnalysisBatchCompleted(
        sessionId: UUID, audioSamples: [Float], audioSampleRate: Int, audioStartTime: Date, audioEndTime: Date,
        audioProbability: [EventType: Float], eventsStarted: [EventStartedInfo], eventsEnded: [EventEndedInfo],
        dbSpl: [Float]
    ) {
        guard !dbSpl.isEmpty else { return }
        let step = audioEndTime.timeIntervalSince(audioStartTime) / Double(dbSpl.count)
        lock.lock()
        defer { lock.unlock() }
        for (index, level) in dbSpl.enumerated() where level.isFinite {
            let time = audioStartTime.timeIntervalSince1970 + step * (Double(index) + 0.5)
            let minute = Int((time / 60).rounded(.down))
            let sum = energies[minute, default: (0, 0)]
            energies[minute] = (sum.sum + pow(10, Double(level) / 10), sum.count + 1)
        }
    }

    /// What was measured so far.
    public var timeline: SoundLevelTimeline {
        lock.lock()
        defer { lock.unlock() }
        return SoundLevelTimeline(
            minutes: energies.keys.sorted().compactMap { minute in
                guard let sum = energies[minute], sum.count > 0 else { return nil }
                return SoundLevelTimeline.Minute(
                    start: Date(timeIntervalSince1970: Double(minute) * 60),
                    leq: 10 * log10(sum.sum / Double(sum.count)), frameCount: sum.count)
            })
    }
}
