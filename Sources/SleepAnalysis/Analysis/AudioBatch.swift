import Foundation

/// One second of analysed audio (mono, 16 kHz) with its front-end features: the unit every audio engine
/// consumes. Consecutive batches of a session cover the analysed signal with no gap and no overlap.
struct AudioBatch: Sendable {
    /// The analysis sample rate (Hz).
    static let sampleRate = 16_000
    /// Samples in a full batch (one second). The last batch of a stream may be shorter.
    static let standardLength = 16_000

    /// Index of the first sample since the session's audio began.
    var firstSampleIndex: Int64
    /// Time of the first sample.
    var startTime: Date
    /// The samples, mono, in -1...1.
    var samples: [Float]
    /// Front-end features of the frames that end inside this batch.
    var features: FeatureBlock

    /// Time just after the last sample.
    var endTime: Date { startTime.addingTimeInterval(Double(samples.count) / Double(Self.sampleRate)) }
}
