import Foundation
import SleepAnalysis
import Synchronization

/// An `AudioEventListener` that records what each batch said, for tests.
public final class RecordingAudioListener: AudioEventListener, Sendable {
    /// One batch's record.
    public struct Batch: Sendable {
        public var sampleCount: Int
        public var sampleRate: Int
        public var startTime: Date
        public var endTime: Date
        public var probabilities: [EventType: Float]
        public var started: [EventStartedInfo]
        public var ended: [EventEndedInfo]
        public var dbSplCount: Int
        public var firstSamples: [Float]
    }

    private let recorded = Mutex<[Batch]>([])

    /// Creates an empty recorder.
    public init() {}

    /// The batches so far.
    public var batches: [Batch] { recorded.withLock { $0 } }

    public func onAudioAnalysisBatchCompleted(
        sessionId: UUID, audioSamples: [Float], audioSampleRate: Int, audioStartTime: Date, audioEndTime: Date,
        audioProbability: [EventType: Float], eventsStarted: [EventStartedInfo], eventsEnded: [EventEndedInfo],
        dbSpl: [Float]
    ) {
        let batch = Batch(
            sampleCount: audioSamples.count, sampleRate: audioSampleRate, startTime: audioStartTime,
            endTime: audioEndTime, probabilities: audioProbability, started: eventsStarted, ended: eventsEnded,
            dbSplCount: dbSpl.count, firstSamples: Array(audioSamples.prefix(4)))
        recorded.withLock { $0.append(batch) }
    }
}
