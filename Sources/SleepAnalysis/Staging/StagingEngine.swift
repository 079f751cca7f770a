import Foundation

/// The staging engine of one session: sensor data in, a real-time prediction per closed 30-second epoch out,
/// and the whole-night result at the end. It joins an `EpochAssembler`, a `SleepStager` and an
/// `AccelerometerMovementDetector`.
///
/// Drive it with the data's own clock (`advance(to:)` with the time the data has reached), so that a replayed
/// night gives exactly the results it would give live. Audio engines set each epoch's cues before the epoch
/// is closed.
public struct StagingEngine: Sendable {
    private var assembler: EpochAssembler
    private var stager: SleepStager
    private var movement: AccelerometerMovementDetector

    /// Creates the engine.
    ///
    /// - Parameters:
    ///   - model: the staging model (e.g. `StagingModel.bundled()`).
    ///   - sessionId: the session (movement events carry it).
    ///   - sessionStart: the session start, which is also the start of the first epoch.
    ///   - accelerometerSampleRate: the accelerometer's rate, or nil to estimate it from timestamps.
    /// - Throws: `SleepCycleSdkError.invalidConfiguration` for a non-positive sample rate.
    public init(model: StagingModel, sessionId: UUID, sessionStart: Date, accelerometerSampleRate: Double? = nil) throws {
        assembler = try EpochAssembler(sessionStart: sessionStart, accelerometerSampleRate: accelerometerSampleRate)
        stager = SleepStager(model: model, sessionStart: sessionStart)
        movement = try AccelerometerMovementDetector(sessionId: sessionId, sampleRate: accelerometerSampleRate)
    }

    /// Takes sensor data (audio chunks are ignored: audio reaches staging as per-epoch cues).
    ///
    /// - Parameter data: the next piece of data from a source.
    /// - Returns: movement events detected in accelerometer data that ended.
    public mutating func ingest(_ data: SensorData) -> [Event] {
        switch data {
        case .accelerometer(let samples):
            assembler.add(accelerometer: samples)
            return movement.add(samples)
        case .heartRate(let samples):
            assembler.add(heartRate: samples)
        case .activityCounts(let samples):
            assembler.add(activityCounts: samples)
        case .audio:
            break
        }
        return []
    }

    /// Sets the audio cues of the epoch containing `time` (before that epoch is closed).
    public mutating func setAudioCues(_ cues: AudioEpochCues, at time: Date) {
        assembler.setAudioCues(cues, at: time)
    }

    /// Closes every epoch that ended by `time` and stages it in real time.
    ///
    /// - Parameter time: the time the data has reached.
    /// - Returns: one causal prediction per closed epoch, oldest first.
    public mutating func advance(to time: Date) -> [SleepStagePrediction] {
        assembler.closeEpochs(through: time).map { stager.addEpoch($0) }
    }

    /// Ends the input: stages the remaining epochs, then the whole night.
    ///
    /// - Returns: the real-time predictions of the remaining epochs, the movement still open, and the night.
    public mutating func finish() -> (realTime: [SleepStagePrediction], movements: [Event], night: StagingNightResult) {
        let last = assembler.finish().map { stager.addEpoch($0) }
        let movements = movement.finish()
        let whole = stager.wholeNight()
        return (last, movements, StagingNightResult(predictions: whole, realTimePredictions: stager.realTimePredictions))
    }

    /// The whole-night result so far, without ending the input (for `stopAnalysis` before the end).
    public func snapshot() -> StagingNightResult {
        StagingNightResult(predictions: stager.wholeNight(), realTimePredictions: stager.realTimePredictions)
    }
}

/// A night's staging: whole-night predictions and the real-time ones, as epochs and as runs.
public struct StagingNightResult: Sendable, Hashable {
    /// Whole-night predictions, one per epoch.
    public var predictions: [SleepStagePrediction]
    /// The predictions published in real time, one per epoch.
    public var realTimePredictions: [SleepStagePrediction]

    /// Creates a result.
    public init(predictions: [SleepStagePrediction], realTimePredictions: [SleepStagePrediction]) {
        self.predictions = predictions
        self.realTimePredictions = realTimePredictions
    }

    /// Whole-night runs of one stage (`AnalysisResult.sleepStageIntervals`).
    public var intervals: [SleepStageInterval] { SleepStageIntervals.from(predictions) }
    /// Real-time runs of one stage (`AnalysisResult.realTimeSleepStageIntervals`).
    public var realTimeIntervals: [SleepStageInterval] { SleepStageIntervals.from(realTimePredictions) }

    /// The night's statistics (see `SleepStatisticsCalculator` for the definitions).
    ///
    /// - Parameters:
    ///   - session: the session's start and end.
    ///   - events: the night's events (snoring ones are counted).
    ///   - snoreSessions: snore sessions when already known.
    /// - Returns: the statistics.
    public func statistics(session: DateInterval?, events: [Event] = [], snoreSessions: [SnoreSession]? = nil)
        -> SleepStatistics
    {
        SleepStatisticsCalculator().statistics(
            predictions: predictions, session: session, events: events, snoreSessions: snoreSessions)
    }
}
