import Foundation

/// The pipeline's staging engine: a `SleepStager` behind the `StagingEngine` protocol.
final class PipelineSleepStager: StagingEngine {
    private var stager: SleepStager

    /// Creates the engine of one session.
    ///
    /// - Parameters:
    ///   - model: the staging model.
    ///   - sessionStart: when the session began.
    init(model: StagingModel, sessionStart: Date) {
        stager = SleepStager(model: model, sessionStart: sessionStart)
    }

    func addEpoch(_ epoch: EpochObservation) -> SleepStagePrediction {
        stager.addEpoch(EpochFeatures(observation: epoch))
    }

    func wholeNight() -> [SleepStagePrediction] {
        stager.wholeNight()
    }

    var basis: StagingBasis? { stager.basis.map(StagingBasis.init(mode:)) }
}

extension EpochFeatures {
    /// The stager's view of a pipeline epoch: activity and heart rate as they are; when the epoch has audio
    /// (a mean level), the audio cues: snoring fraction (snoring seconds / 30), movement count (movement
    /// events and movement-sound batches), mean level and breathing rate.
    init(observation: EpochObservation) {
        var audio: AudioEpochCues?
        if let level = observation.meanDbSpl {
            audio = AudioEpochCues(
                snoringFraction: min(max(observation.snoringSeconds / EpochFeatures.duration, 0), 1),
                movementSoundCount: observation.movementEventCount, meanDbA: level,
                breathingRate: observation.breathingRate)
        }
        self.init(
            start: observation.interval.start, activityCount: observation.activity,
            heartRate: HeartRateEpochStats(bpm: observation.heartRates), audio: audio)
    }
}
