import Foundation
import TestSupport
import XCTest

@testable import SleepAnalysis

/// `AudioBatchListenerNotifier`: every listener hears of each analysed batch, with a probability for every event
/// type (0 for the ones the detector did not report) and the events that ended.
final class AudioBatchListenerNotifierTests: XCTestCase {
    func test_everyListenerHearsOfTheBatch_withEveryEventTypesProbability() {
        let session = UUID()
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        let listeners = [RecordingAudioListener(), RecordingAudioListener()]
        let notifier = AudioBatchListenerNotifier(sessionId: session, listeners: ListenerBox(listeners: listeners))
        let features = FeatureBlock(
            firstFrameIndex: 0, frameCount: 2, melBandCount: 0, logMel: [], dbSpl: [40, 41], dbfs: [-50, -49])
        let batch = AudioBatch(
            firstSampleIndex: 0, startTime: start, samples: [Float](repeating: 0.25, count: 16_000),
            features: features)
        let snore = Event(
            type: .snoring, interval: DateInterval(start: start, duration: 0.5), probability: 0.75,
            source: .audio, sessionId: session)
        notifier.batchCompleted(
            batch, update: EventDetectorOutput(probabilities: [.snoring: 0.75], started: [], ended: [snore]))
        for listener in listeners {
            XCTAssertEqual(listener.batches.count, 1)
            let heard = listener.batches[0]
            XCTAssertEqual(heard.sampleCount, 16_000)
            XCTAssertEqual(heard.sampleRate, AudioBatch.sampleRate)
            XCTAssertEqual(heard.startTime, start)
            XCTAssertEqual(heard.endTime, start.addingTimeInterval(1))
            XCTAssertEqual(Set(heard.probabilities.keys), Set(EventType.allCases))
            XCTAssertEqual(heard.probabilities[.snoring], 0.75)
            XCTAssertEqual(heard.probabilities.values.filter { $0 == 0 }.count, EventType.allCases.count - 1)
            XCTAssertEqual(heard.ended.map(\.type), [.snoring])
            XCTAssertEqual(heard.ended.first?.probability, 0.75)
            XCTAssertEqual(heard.dbSplCount, 2)
        }
    }
}
