import Foundation
import SleepAnalysis

/// Runs the event engine on every clip of a labelled clip set and scores it (`sleepanalysis evaluate events`).
///
/// Each clip is analysed alone, as a stream of one-second batches through the front end and the detector with
/// every type enabled; its predicted label is the type of the detected event with the highest probability, or
/// none when nothing was detected. Negatives (`breathing`, `other`, any class that is not an `EventType`)
/// count as none.
package struct EventClipEvaluator: Sendable {
    /// The model under test.
    package let model: EventClassifierModel

    /// Creates an evaluator.
    ///
    /// - Parameter model: The model to run (`EventClassifierModel.bundled()` for the shipped one).
    package init(model: EventClassifierModel) {
        self.model = model
    }

    /// The predicted label of one clip.
    ///
    /// - Parameter samples: Mono 16 kHz samples (padded as `EventClipAudio` does).
    /// - Returns: The most probable detected type, or nil.
    /// - Throws: `SleepCycleSdkError` when the front end or the detector cannot be set up.
    package func predict(samples: [Float]) throws -> EventType? {
        let events = try detect(samples: samples)
        return events.max { $0.probability < $1.probability }?.type
    }

    /// All events the engine finds in a clip.
    ///
    /// - Parameter samples: Mono 16 kHz samples.
    /// - Returns: The complete events, in the order they ended.
    /// - Throws: `SleepCycleSdkError` when the front end or the detector cannot be set up.
    package func detect(samples: [Float]) throws -> [Event] {
        let frontEnd = try FrontEnd()
        let detector = try EventDetector(
            model: model, enabledTypes: Set(EventType.allCases), sessionId: UUID(),
            melBandCount: frontEnd.configuration.melBandCount)
        let origin = Date(timeIntervalSince1970: 0)
        var events: [Event] = []
        var offset = 0
        while offset < samples.count {
            let end = min(samples.count, offset + AudioBatch.standardLength)
            let block = frontEnd.process(Array(samples[offset..<end]))
            let start = origin.addingTimeInterval(Double(offset) / Double(AudioBatch.sampleRate))
            events += detector.process(features: block, batchStart: start, firstSampleIndex: Int64(offset)).ended
            offset = end
        }
        events += detector.finish().ended
        return events
    }

    /// Evaluates a clip set.
    ///
    /// - Parameters:
    ///   - manifest: The clip set.
    ///   - bandLimit: Score a band-limited copy of each clip (`EventBandLimit`) instead of the clip as recorded.
    ///   - progress: Called after each clip with (clips done, clips in total).
    /// - Returns: Per-type precision, recall and F1, macro-F1 and the confusion matrix.
    /// - Throws: `SleepCycleSdkError.invalidInput` when a clip cannot be read, and the copy's errors
    ///   (`EventBandLimit.apply(to:)`).
    package func evaluate(
        _ manifest: EventClipManifest,
        bandLimit: EventBandLimit? = nil,
        progress: (Int, Int) -> Void = { _, _ in }
    ) throws -> EventClipReport {
        var pairs: [(truth: EventType?, predicted: EventType?)] = []
        for (index, entry) in manifest.entries.enumerated() {
            var samples = try EventClipAudio.load(entry.url)
            if let bandLimit { samples = try bandLimit.apply(to: samples) }
            let predicted = try predict(samples: samples)
            pairs.append((entry.type, predicted))
            progress(index + 1, manifest.entries.count)
        }
        return EventClipReport.score(pairs)
    }
}
