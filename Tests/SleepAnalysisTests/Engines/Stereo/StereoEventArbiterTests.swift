import Foundation
import XCTest

@testable import SleepAnalysis

/// An events engine that reports scripted events: started in the batch containing their start, ended when the
/// batch containing their end is processed, and their probability in every batch they overlap.
private final class ScriptedEventsEngine: AudioEventsEngine {
    private var events: [Event]
    init(_ events: [Event]) { self.events = events }

    func process(_ batch: AudioBatch) -> EventDetectorOutput {
        var probabilities: [EventType: Float] = [:]
        for event in events where event.interval.start < batch.endTime && event.interval.end > batch.startTime {
            probabilities[event.type] = Float(event.probability)
        }
        let started = events.filter { $0.interval.start >= batch.startTime && $0.interval.start < batch.endTime }
            .map { EventStartedInfo(type: $0.type, startTime: $0.interval.start, probability: Float($0.probability)) }
        let ended = events.filter { $0.interval.end <= batch.endTime }
        events.removeAll { $0.interval.end <= batch.endTime }
        return EventDetectorOutput(probabilities: probabilities, started: started, ended: ended)
    }

    func finish() -> EventDetectorOutput {
        defer { events = [] }
        return EventDetectorOutput(probabilities: [:], started: [], ended: events)
    }
}

final class StereoEventArbiterTests: XCTestCase {
    private let origin = Date(timeIntervalSinceReferenceDate: 1_000)
    private let rate = AudioBatch.sampleRate

    /// A stereo pair: quiet independent noise on both channels and a one-second noise burst from 1.5 s, heard
    /// first (and louder) on `near`, `delaySamples` later and `attenuation` quieter on the other channel.
    private func burst(
        near: AnalysisChannel, delaySamples: Int, attenuation: Float, seconds: Int = 4
    )
        -> (primary: [Float], secondary: [Float])
    {
        var generator = SplitMix64(seed: 42)
        let count = seconds * rate
        var source = [Float](repeating: 0, count: count)
        for index in (rate * 3 / 2)..<(rate * 5 / 2) { source[index] = 0.3 * generator.nextSigned() }
        var nearChannel = [Float](repeating: 0, count: count)
        var farChannel = [Float](repeating: 0, count: count)
        for index in 0..<count {
            nearChannel[index] = source[index] + 0.001 * generator.nextSigned()
            let delayed = index >= delaySamples ? source[index - delaySamples] : 0
            farChannel[index] = attenuation * delayed + 0.001 * generator.nextSigned()
        }
        return near == .primary ? (nearChannel, farChannel) : (farChannel, nearChannel)
    }

    private func event(
        _ type: EventType = .coughing, from start: Double, to end: Double, probability: Double
    )
        -> Event
    {
        Event(
            type: type, interval: DateInterval(start: origin + start, end: origin + end), probability: probability,
            source: .audio, sessionId: UUID())
    }

    /// Runs the arbiter over the pair in one-second batches; returns what each channel received.
    private func run(
        _ arbiter: StereoEventArbiter, _ pair: (primary: [Float], secondary: [Float]),
        channels: [AnalysisChannel] = AnalysisChannel.allCases
    ) -> [AnalysisChannel: [Event]] {
        var starts: [AnalysisChannel: [EventStartedInfo]] = [:]
        return run(arbiter, pair, channels: channels, starts: &starts)
    }

    /// Runs the arbiter over the pair in one-second batches; returns what each channel received, and the starts
    /// announced to each in `starts`.
    private func run(
        _ arbiter: StereoEventArbiter, _ pair: (primary: [Float], secondary: [Float]),
        channels: [AnalysisChannel] = AnalysisChannel.allCases, starts: inout [AnalysisChannel: [EventStartedInfo]]
    ) -> [AnalysisChannel: [Event]] {
        for channel in channels { arbiter.attach(channel) }
        var received: [AnalysisChannel: [Event]] = [:]
        let features = FeatureBlock(firstFrameIndex: 0, frameCount: 0, melBandCount: 0, logMel: [], dbSpl: [], dbfs: [])
        var first = 0
        while first < pair.primary.count {
            let last = min(first + rate, pair.primary.count)
            let start = origin.addingTimeInterval(Double(first) / Double(rate))
            arbiter.process(
                primary: AudioBatch(
                    firstSampleIndex: Int64(first), startTime: start, samples: Array(pair.primary[first..<last]),
                    features: features),
                secondary: AudioBatch(
                    firstSampleIndex: Int64(first), startTime: start, samples: Array(pair.secondary[first..<last]),
                    features: features))
            for channel in channels {
                received[channel, default: []] += arbiter.take(for: channel)
                starts[channel, default: []] += arbiter.takeStarts(for: channel)
            }
            first = last
        }
        for channel in channels { received[channel, default: []] += arbiter.finish(for: channel) }
        return received
    }

    private func arbiter(
        _ config: ChannelSeparationConfig, primary: [Event], secondary: [Event]
    ) throws -> StereoEventArbiter {
        try StereoEventArbiter(config: config) { channel in
            ScriptedEventsEngine(channel == .primary ? primary : secondary)
        }
    }

    func test_arbiter_givesABurstNearThePrimaryMicrophone_toPrimary() throws {
        let pair = burst(near: .primary, delaySamples: 40, attenuation: 0.4)
        let detected = event(from: 1.5, to: 2.5, probability: 0.9)
        let received = run(try arbiter(.bedSideMics, primary: [detected], secondary: [detected]), pair)
        XCTAssertEqual(received[.primary]?.map(\.interval), [detected.interval])
        XCTAssertEqual(received[.secondary]?.count, 0)
    }

    func test_arbiter_givesABurstNearTheSecondaryMicrophone_toSecondary() throws {
        let pair = burst(near: .secondary, delaySamples: 40, attenuation: 0.4)
        let detected = event(from: 1.5, to: 2.5, probability: 0.9)
        let received = run(try arbiter(.bedSideMics, primary: [detected], secondary: [detected]), pair)
        XCTAssertEqual(received[.secondary]?.map(\.interval), [detected.interval])
        XCTAssertEqual(received[.primary]?.count, 0)
    }

    func test_arbiter_measuresTheDelayAndLevel_ofTheBurst() throws {
        let pair = burst(near: .secondary, delaySamples: 40, attenuation: 0.5)
        let arbiter = try arbiter(.bedSideMics, primary: [], secondary: [])
        _ = run(arbiter, pair)
        let cues = arbiter.cues(for: .coughing, over: DateInterval(start: origin + 1.6, end: origin + 2.4))
        XCTAssertEqual(try XCTUnwrap(cues.timeDifference), -40.0 / Double(rate), accuracy: 1.0 / Double(rate))
        XCTAssertEqual(try XCTUnwrap(cues.levelDifference), 20 * log10(0.5), accuracy: 0.5)
    }

    func test_arbiter_onACenteredArray_followsAFewSamplesOfDelay_atEqualLevel() throws {
        let pair = burst(near: .secondary, delaySamples: 4, attenuation: 1)
        let detected = event(from: 1.5, to: 2.5, probability: 0.9)
        let received = run(try arbiter(.centeredMicArray, primary: [detected], secondary: [detected]), pair)
        XCTAssertEqual(received[.secondary]?.count, 1)
        XCTAssertEqual(received[.primary]?.count, 0)
    }

    func test_arbiter_givesAnEventDetectedOnBothChannels_once() throws {
        let pair = burst(near: .primary, delaySamples: 40, attenuation: 0.4)
        let onPrimary = event(from: 1.5, to: 2.5, probability: 0.95)
        let onSecondary = event(from: 1.6, to: 2.4, probability: 0.7)
        let received = run(try arbiter(.bedSideMics, primary: [onPrimary], secondary: [onSecondary]), pair)
        XCTAssertEqual(received[.primary]?.count, 1)
        XCTAssertEqual(received[.secondary]?.count, 0)
    }

    func test_arbiter_announcesAStart_toTheNearSleeperOnly_onceThoughBothChannelsDetectIt() throws {
        let pair = burst(near: .secondary, delaySamples: 40, attenuation: 0.4)
        let onPrimary = event(from: 1.6, to: 2.4, probability: 0.7)
        let onSecondary = event(from: 1.5, to: 2.5, probability: 0.95)
        var starts: [AnalysisChannel: [EventStartedInfo]] = [:]
        let received = run(
            try arbiter(.bedSideMics, primary: [onPrimary], secondary: [onSecondary]), pair, starts: &starts)
        // One start (whichever channel's detection came first), on the near sleeper's channel only.
        let announced = try XCTUnwrap(starts[.secondary])
        XCTAssertEqual(announced.count, 1)
        XCTAssertEqual(announced.first?.startTime.timeIntervalSince(origin) ?? 0, 1.55, accuracy: 0.051)
        XCTAssertEqual(starts[.primary]?.count, 0)
        XCTAssertEqual(received[.secondary]?.count, 1)
    }

    func test_arbiter_givesAnAmbiguousEvent_toBoth_whenTheResolutionIsBoth() throws {
        let pair = burst(near: .primary, delaySamples: 0, attenuation: 1)
        let detected = event(from: 1.5, to: 2.5, probability: 0.9)
        let received = run(try arbiter(.bedSideMics, primary: [detected], secondary: [detected]), pair)
        XCTAssertEqual(received[.primary]?.count, 1)
        XCTAssertEqual(received[.secondary]?.count, 1)
    }

    func test_arbiter_queuesEvents_onlyForAttachedChannels() throws {
        let pair = burst(near: .secondary, delaySamples: 40, attenuation: 0.4)
        let detected = event(from: 1.5, to: 2.5, probability: 0.9)
        let received = run(
            try arbiter(.bedSideMics, primary: [detected], secondary: [detected]), pair, channels: [.primary])
        XCTAssertEqual(received[.primary]?.count, 0)
        XCTAssertNil(received[.secondary])
    }

    func test_finishForOneChannel_closesOpenEvents_andKeepsTheOtherChannelsQueue() throws {
        // The event ends only at the end of the stream: finish closes it; the secondary session, still running,
        // must get it from its queue even though the primary finished first.
        let pair = burst(near: .secondary, delaySamples: 40, attenuation: 0.4, seconds: 3)
        let open = event(from: 1.5, to: 10, probability: 0.9)
        var made = 0
        let arbiter = try StereoEventArbiter(config: .bedSideMics) { _ in
            made += 1
            return ScriptedEventsEngine(made <= 2 ? [open] : [])
        }
        arbiter.attach(.primary)
        arbiter.attach(.secondary)
        let features = FeatureBlock(firstFrameIndex: 0, frameCount: 0, melBandCount: 0, logMel: [], dbSpl: [], dbfs: [])
        for second in 0..<3 {
            let range = (second * rate)..<((second + 1) * rate)
            let start = origin.addingTimeInterval(Double(second))
            arbiter.process(
                primary: AudioBatch(
                    firstSampleIndex: Int64(range.lowerBound), startTime: start, samples: Array(pair.primary[range]),
                    features: features),
                secondary: AudioBatch(
                    firstSampleIndex: Int64(range.lowerBound), startTime: start,
                    samples: Array(pair.secondary[range]), features: features))
        }
        XCTAssertEqual(arbiter.finish(for: .primary), [])
        XCTAssertEqual(made, 4, "fresh engines carry on for the secondary channel")
        XCTAssertEqual(arbiter.take(for: .secondary).map(\.interval), [open.interval])
    }

    func test_arbitratedEngine_handsOnEvents_asTheSessionsOwn_withItsTypesOnly() throws {
        let pair = burst(near: .primary, delaySamples: 40, attenuation: 0.4)
        let cough = event(.coughing, from: 1.5, to: 2.5, probability: 0.9)
        let snore = event(.snoring, from: 1.5, to: 2.4, probability: 0.9)
        let arbiter = try arbiter(.bedSideMics, primary: [cough, snore], secondary: [])
        let sessionId = UUID()
        let engine = ArbitratedEventsEngine(
            arbiter: arbiter, channel: .primary, sessionId: sessionId, enabledTypes: [.coughing], startTime: origin)
        let features = FeatureBlock(firstFrameIndex: 0, frameCount: 0, melBandCount: 0, logMel: [], dbSpl: [], dbfs: [])
        var ended: [Event] = []
        var started: [EventStartedInfo] = []
        for second in 0..<4 {
            let range = (second * rate)..<((second + 1) * rate)
            let start = origin.addingTimeInterval(Double(second))
            let primary = AudioBatch(
                firstSampleIndex: Int64(range.lowerBound), startTime: start, samples: Array(pair.primary[range]),
                features: features)
            arbiter.process(
                primary: primary,
                secondary: AudioBatch(
                    firstSampleIndex: Int64(range.lowerBound), startTime: start,
                    samples: Array(pair.secondary[range]), features: features))
            let update = engine.process(primary)
            XCTAssertNil(update.probabilities[.snoring])
            ended += update.ended
            started += update.started
        }
        ended += engine.finish().ended
        XCTAssertEqual(started.map(\.type), [.coughing], "the start is announced, for enabled types only")
        XCTAssertEqual(ended.map(\.type), [.coughing])
        XCTAssertEqual(ended.map(\.sessionId), [sessionId])
    }
}
