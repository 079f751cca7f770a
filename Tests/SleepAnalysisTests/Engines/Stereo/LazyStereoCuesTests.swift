import Foundation
import TestSupport
import XCTest

@testable import SleepAnalysis
@testable import SleepAnalysisEvaluation

/// The events detector's reach bounds every event it reports later, and the arbiter, which measures stereo cues
/// only inside that reach, assigns the events of a stretch of the demo night exactly as when it measures every
/// frame.
final class LazyStereoCuesTests: XCTestCase {
    /// The events engine of a channel, with its reach hidden: the arbiter then measures every frame.
    private final class ReachHidden: AudioEventsEngine {
        let detector: EventDetector
        init(_ detector: EventDetector) { self.detector = detector }
        func process(_ batch: AudioBatch) -> EventDetectorOutput { detector.process(batch) }
        func finish() -> EventDetectorOutput { detector.finish() }
    }

    /// 160 s of the demo night: two quiet minutes, then the first 40 s of its first snoring episode (from 600 s).
    private static let excerpt: Result<[Float], any Error> = Result(catching: {
        let samples = try EventClipAudio.load(FixturePaths.fixtures.appendingPathComponent("night_short.ogg"))
        return Array(samples[(480 * AudioBatch.sampleRate)..<(640 * AudioBatch.sampleRate)])
    })

    private func detector() throws -> EventDetector {
        try EventDetector(
            model: try EventClassifierModel.bundled(), enabledTypes: Set(EventType.allCases), sessionId: UUID())
    }

    /// One-second batches of the samples with their front-end features.
    private func batches(_ samples: [Float], origin: Date) throws -> [AudioBatch] {
        let frontEnd = try FrontEnd()
        return stride(from: 0, to: samples.count, by: AudioBatch.standardLength).map { first in
            let block = Array(samples[first..<min(samples.count, first + AudioBatch.standardLength)])
            return AudioBatch(
                firstSampleIndex: Int64(first), startTime: origin.addingTimeInterval(Double(first) / 16_000),
                samples: block, features: frontEnd.process(block))
        }
    }

    func test_detectorReach_boundsEveryEventReportedLater() throws {
        let origin = Date(timeIntervalSince1970: 2_000_000)
        let detector = try detector()
        var bound = Date.distantPast
        var reported = 0
        var openSeen = false
        func check(_ output: EventDetectorOutput) {
            for start in output.started.map(\.startTime) + output.ended.map(\.interval.start) {
                XCTAssertGreaterThanOrEqual(start, bound)
                reported += 1
            }
        }
        for batch in try batches(try Self.excerpt.get(), origin: origin) {
            check(detector.process(batch))
            let reach = try XCTUnwrap(detector.eventReach)
            openSeen = openSeen || reach.openEventStart != nil
            // Not trivially early: a new event can begin at most a window (1 s) before the batch's end.
            XCTAssertGreaterThanOrEqual(reach.earliestNewEventStart, batch.endTime.addingTimeInterval(-1.01))
            bound = min(reach.openEventStart ?? .distantFuture, reach.earliestNewEventStart)
        }
        check(detector.finish())
        XCTAssertGreaterThan(reported, 10)
        XCTAssertTrue(openSeen)
    }

    func test_arbiter_measuringCuesOnlyWhereEventsCanBe_assignsAsWhenMeasuringEveryFrame() throws {
        let origin = Date(timeIntervalSince1970: 3_000_000)
        let primary = try Self.excerpt.get()
        // The secondary microphone hears the same night 30 samples later and 8 dB lower.
        let secondary = (0..<primary.count).map { $0 >= 30 ? 0.4 * primary[$0 - 30] : 0 }
        func run(hidingReach: Bool) throws -> (decisions: [StereoEventArbiter.Decision], received: [Event], cues: Int) {
            // Both channels' engines, and the fresh pair made when the first session finishes.
            var detectors = try (0..<4).map { _ in try detector() }
            let arbiter = try StereoEventArbiter(config: .bedSideMics) { _ in
                let detector = detectors.removeFirst()
                return hidingReach ? ReachHidden(detector) : detector
            }
            arbiter.recordsDecisions = true
            arbiter.attach(.primary)
            arbiter.attach(.secondary)
            var received: [Event] = []
            for (left, right) in zip(try batches(primary, origin: origin), try batches(secondary, origin: origin)) {
                arbiter.process(primary: left, secondary: right)
                received += arbiter.take(for: .primary) + arbiter.take(for: .secondary)
            }
            received += arbiter.finish(for: .primary) + arbiter.finish(for: .secondary)
            return (arbiter.decisions, received, arbiter.cueFramesMeasured)
        }
        let everyFrame = try run(hidingReach: true)
        let lazily = try run(hidingReach: false)
        XCTAssertGreaterThan(everyFrame.decisions.count, 10)
        // The sessions' ids differ between the runs; the rest of each event is the same.
        func described(_ events: [Event]) -> [String] {
            events.map { "\($0.type) \($0.interval) \($0.probability) \($0.signature ?? [])" }
        }
        XCTAssertEqual(described(lazily.decisions.map(\.event)), described(everyFrame.decisions.map(\.event)))
        XCTAssertEqual(lazily.decisions.map(\.cues), everyFrame.decisions.map(\.cues))
        XCTAssertEqual(lazily.decisions.map(\.position), everyFrame.decisions.map(\.position))
        XCTAssertEqual(described(lazily.received), described(everyFrame.received))
        // Every frame of the 160 s was measured in the first run, under half of them in the second.
        XCTAssertEqual(everyFrame.cues, 160 * AudioBatch.sampleRate / StereoEventArbiter.cueFrameLength)
        XCTAssertLessThan(lazily.cues, everyFrame.cues / 2, "\(lazily.cues) of \(everyFrame.cues) frames measured")
    }
}
