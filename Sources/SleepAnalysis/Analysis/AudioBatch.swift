import Foundation

/// One second of analysed audio (mono, 16 kHz) with its front-end features: the unit every audio engine
/// consumes. Consecutive batches of a session cover the analysed signal with no gap and no overlap.
package struct AudioBatch: Sendable {
    /// The analysis sample rate (Hz).
    package static let sampleRate = 16_000
    /// Samples in a full batch (one second). The last batch of a stream may be shorter.
    package static let standardLength = 16_000

    /// Index of the first sample since the session's audio began.
    package var firstSampleIndex: Int64
    /// Time of the first sample.
    package var startTime: Date
    /// The samples, mono, in -1...1.
    package var samples: [Float]
    /// Front-end features of the frames that end inside this batch.
    package var features: FeatureBlock

    /// Creates a batch.
    ///
    /// - Parameters:
    ///   - firstSampleIndex: Index of the first sample since the session's audio began.
    ///   - startTime: Time of the first sample.
    ///   - samples: The samples, mono, in -1...1.
    ///   - features: Front-end features of the frames that end inside this batch.
    package init(firstSampleIndex: Int64, startTime: Date, samples: [Float], features: FeatureBlock) {
        self.firstSampleIndex = firstSampleIndex
        self.startTime = startTime
        self.samples = samples
        self.features = features
    }

    /// Time just after the last sample.
    package var endTime: Date { startTime.addingTimeInterval(Double(samples.count) / Double(Self.sampleRate)) }
}
