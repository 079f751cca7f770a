import Foundation

/// An event that opened inside an audio batch.
public struct EventStartedInfo: Sendable, Hashable {
    /// The kind of event.
    public var type: EventType
    /// When it started.
    public var startTime: Date
    /// The detector's confidence, 0...1.
    public var probability: Float

    /// Creates the record.
    ///
    /// - Parameters:
    ///   - type: The kind of event.
    ///   - startTime: When it started.
    ///   - probability: The detector's confidence, 0...1.
    public init(type: EventType, startTime: Date, probability: Float) {
        self.type = type
        self.startTime = startTime
        self.probability = probability
    }
}

/// An event that closed inside an audio batch.
public struct EventEndedInfo: Sendable, Hashable {
    /// The kind of event.
    public var type: EventType
    /// When it started.
    public var startTime: Date
    /// When it ended.
    public var endTime: Date
    /// The detector's confidence over the event, 0...1.
    public var probability: Float

    /// Creates the record.
    ///
    /// - Parameters:
    ///   - type: The kind of event.
    ///   - startTime: When it started.
    ///   - endTime: When it ended.
    ///   - probability: The detector's confidence, 0...1.
    public init(type: EventType, startTime: Date, endTime: Date, probability: Float) {
        self.type = type
        self.startTime = startTime
        self.endTime = endTime
        self.probability = probability
    }
}

/// Receives every batch of analysed audio, in order, with no gap and no overlap between batches.
///
/// Called on the analysis thread: return quickly. The compiler checks that this cannot race: the calls that take
/// listeners (`startAnalysis(eventListeners:)`, `resumeAnalysis(eventListeners:)`) take them `sending`, so a
/// listener is either `Sendable` (its state in a `Mutex`, or immutable), and the app may go on reading it, or
/// handed over and never touched by the app again. In Swift 6 mode, a non-`Sendable` listener with `var` state
/// that the app keeps using does not compile.
public protocol AudioEventListener: AnyObject {
    /// One batch of analysed audio and what the analysis found in it.
    ///
    /// - Parameters:
    ///   - sessionId: The session.
    ///   - audioSamples: The analysed samples (mono, at `audioSampleRate`), continuing exactly where the previous
    ///     batch ended.
    ///   - audioSampleRate: The analysis sample rate in Hz.
    ///   - audioStartTime: The time of the first sample.
    ///   - audioEndTime: The time just after the last sample.
    ///   - audioProbability: Each event type's probability over the batch.
    ///   - eventsStarted: Events that opened in the batch.
    ///   - eventsEnded: Events that closed in the batch.
    ///   - dbSpl: A-weighted sound level in dB SPL, one value per analysis frame.
    func onAudioAnalysisBatchCompleted(
        sessionId: UUID, audioSamples: [Float], audioSampleRate: Int, audioStartTime: Date, audioEndTime: Date,
        audioProbability: [EventType: Float], eventsStarted: [EventStartedInfo], eventsEnded: [EventEndedInfo],
        dbSpl: [Float])
}

/// The minimum length an event must have to produce a clip.
public struct EventTypeConfig: Sendable, Hashable {
    /// Seconds.
    public var minDuration: Double

    /// Creates a configuration.
    ///
    /// - Parameter minDuration: Seconds.
    public init(minDuration: Double) {
        self.minDuration = minDuration
    }
}

/// Which events produce audio clips, and how long the clips are.
public struct AudioClipsConfig: Sendable, Hashable {
    /// The event types that produce clips, each with its minimum duration.
    public var activeTypes: [EventType: EventTypeConfig]
    /// The length of a clip in seconds.
    public var clipLength: Double

    /// Creates a configuration.
    ///
    /// - Parameters:
    ///   - activeTypes: The event types that produce clips, each with its minimum duration.
    ///   - clipLength: The length of a clip in seconds.
    public init(activeTypes: [EventType: EventTypeConfig], clipLength: Double) {
        self.activeTypes = activeTypes
        self.clipLength = clipLength
    }
}

/// A short recording around an event.
public struct AudioClip: Sendable, Hashable {
    /// The time of the first sample.
    public var startTime: Date
    /// The event type that caused the capture.
    public var type: EventType
    /// The samples (mono).
    public var samples: [Float]
    /// Samples per second.
    public var sampleRate: Int
    /// The session.
    public var sessionId: UUID

    /// Creates a clip.
    ///
    /// - Parameters:
    ///   - startTime: When it started.
    ///   - type: The kind of event.
    ///   - samples: The samples (mono).
    ///   - sampleRate: Samples per second.
    ///   - sessionId: The session.
    public init(startTime: Date, type: EventType, samples: [Float], sampleRate: Int, sessionId: UUID) {
        self.startTime = startTime
        self.type = type
        self.samples = samples
        self.sampleRate = sampleRate
        self.sessionId = sessionId
    }
}

/// Receives the clips made by `SleepCycleSdk.createAudioClipsProducer(...)`, on the analysis thread.
///
/// As for ``AudioEventListener``, the compiler checks it: `createAudioClipsProducer` takes the receiver `sending`,
/// so it is `Sendable` or handed over for good.
public protocol AudioClipsReceiver: AnyObject {
    /// A clip was produced.
    func onAudioClipProduced(_ clip: AudioClip)
}
