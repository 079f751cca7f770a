import Foundation
import Synchronization

/// Listens to an analysis (`SleepCycleSdk.startAnalysis(eventListeners:)`) and keeps the A-weighted sound level
/// of every analysed frame as one Leq per clock minute, for the night report's sound-level chart. Nothing is
/// measured twice: these are the levels the analysis computes anyway.
public final class SoundLevelCollector: AudioEventListener, Sendable {
    /// Energy sums and frame counts by clock minute: written on the analysis thread, read once the recording's
    /// `waitUntilFinished()` returned or the session stopped (every frame is in by then).
    private let energies = Mutex<[Int: (sum: Double, count: Int)]>([:])

    /// The calibration of the session's levels (`SleepAnalysisConfig.soundLevelCalibration`); nil when they are
    /// relative.
    public let calibration: LevelCalibration?

    /// Creates a collector with nothing measured.
    ///
    /// - Parameter calibration: The calibration of the session it listens to
    ///   (`SleepAnalysisConfig.soundLevelCalibration`, which puts the levels listeners receive in dB SPL); nil when
    ///   the session has none and the levels are relative.
    public init(calibration: LevelCalibration? = nil) {
        self.calibration = calibration
    }

    /// Adds a batch's levels, the frames spread evenly over the batch's time.
    public func onAudioAnalysisBatchCompleted(
        sessionId: UUID, audioSamples: [Float], audioSampleRate: Int, audioStartTime: Date, audioEndTime: Date,
        audioProbability: [EventType: Float], eventsStarted: [EventStartedInfo], eventsEnded: [EventEndedInfo],
        dbSpl: [Float]
    ) {
        guard !dbSpl.isEmpty else { return }
        let step = audioEndTime.timeIntervalSince(audioStartTime) / Double(dbSpl.count)
        energies.withLock { energies in
            for (index, level) in dbSpl.enumerated() where level.isFinite {
                let time = audioStartTime.timeIntervalSince1970 + step * (Double(index) + 0.5)
                let minute = Int((time / 60).rounded(.down))
                let sum = energies[minute, default: (0, 0)]
                energies[minute] = (sum.sum + pow(10, Double(level) / 10), sum.count + 1)
            }
        }
    }

    /// What was measured so far.
    public var timeline: SoundLevelTimeline {
        let energies = self.energies.withLock { $0 }
        return SoundLevelTimeline(
            minutes: energies.keys.sorted().compactMap { minute in
                guard let sum = energies[minute], sum.count > 0 else { return nil }
                return SoundLevelTimeline.Minute(
                    start: Date(timeIntervalSince1970: Double(minute) * 60),
                    leq: 10 * log10(sum.sum / Double(sum.count)), frameCount: sum.count)
            }, calibration: calibration)
    }
}
