import Foundation

/// Tells a session's audio event listeners (`AudioEventListener`) about each analysed audio batch: its samples,
/// every event type's probability (0 for types the detector did not report), the events started and ended, and
/// the batch's sound levels (in the session's calibration).
struct AudioBatchListenerNotifier {
    /// The session the batches belong to.
    let sessionId: UUID
    /// The listeners.
    let listeners: ListenerBox
    /// Added to the front end's levels (which use `LevelCalibration.default`, as the models were trained) to put
    /// them in the session's calibration (`SleepAnalysisConfig.soundLevelCalibration`); 0 without one.
    var levelShift: Float = 0

    /// Calls every listener's `onAudioAnalysisBatchCompleted` for `batch`; nothing is built without listeners.
    ///
    /// - Parameters:
    ///   - batch: The analysed batch.
    ///   - update: What the events detector made of it.
    func batchCompleted(_ batch: AudioBatch, update: EventDetectorOutput) {
        guard !listeners.listeners.isEmpty else { return }
        var probabilities: [EventType: Float] = [:]
        for type in EventType.allCases { probabilities[type] = update.probabilities[type] ?? 0 }
        let ended = update.ended.map {
            EventEndedInfo(
                type: $0.type, startTime: $0.interval.start, endTime: $0.interval.end,
                probability: Float($0.probability))
        }
        let levels = levelShift == 0 ? batch.features.dbSpl : batch.features.dbSpl.map { $0 + levelShift }
        for listener in listeners.listeners {
            listener.onAudioAnalysisBatchCompleted(
                sessionId: sessionId, audioSamples: batch.samples, audioSampleRate: AudioBatch.sampleRate,
                audioStartTime: batch.startTime, audioEndTime: batch.endTime, audioProbability: probabilities,
                eventsStarted: update.started, eventsEnded: ended, dbSpl: levels)
        }
    }
}
