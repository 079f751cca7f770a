import Foundation
import SleepAnalysis
import Synchronization
import XCTest

/// The clips producer cuts `clipLength` seconds of audio around events of the active types that last long enough.
final class AudioClipsProducerTests: XCTestCase {
    /// Read by the test after the producer took it, so `Sendable`: its clips are behind a mutex.
    private final class Receiver: AudioClipsReceiver, Sendable {
        private let received = Mutex<[AudioClip]>([])
        var clips: [AudioClip] { received.withLock { $0 } }
        func onAudioClipProduced(_ clip: AudioClip) { received.withLock { $0.append(clip) } }
    }

    private let start = Date(timeIntervalSince1970: 1_800_000_000)
    private let session = UUID()

    /// Feeds one-second batches whose samples encode their own index (sample n has value n / 1e6).
    private func feed(
        _ listener: any AudioEventListener, seconds: Int, ended: [Int: [EventEndedInfo]], from first: Int = 0
    ) {
        for second in first..<seconds {
            let samples = (0..<16_000).map { Float(second * 16_000 + $0) / 1e6 }
            listener.onAudioAnalysisBatchCompleted(
                sessionId: session, audioSamples: samples, audioSampleRate: 16_000,
                audioStartTime: start.addingTimeInterval(Double(second)),
                audioEndTime: start.addingTimeInterval(Double(second + 1)), audioProbability: [:],
                eventsStarted: [], eventsEnded: ended[second] ?? [], dbSpl: [])
        }
    }

    private func event(_ type: EventType, from: Double, to: Double) -> EventEndedInfo {
        EventEndedInfo(
            type: type, startTime: start.addingTimeInterval(from), endTime: start.addingTimeInterval(to),
            probability: 0.9)
    }

    func test_clip_is_centred_on_an_event_of_an_active_type_and_waits_for_the_audio_after_it() {
        let receiver = Receiver()
        let producer = SleepCycleSdk.createAudioClipsProducer(
            audioClipsConfig: AudioClipsConfig(
                activeTypes: [.snoring: EventTypeConfig(minDuration: 0.5)], clipLength: 4),
            receiver: receiver)
        // Given a snore from 11 s to 12.5 s, reported in the batch that ends at 13 s
        feed(producer, seconds: 13, ended: [12: [event(.snoring, from: 11, to: 12.5)]])
        // Then no clip yet: the clip (9.75 s to 13.75 s) needs audio not analysed yet
        XCTAssertTrue(receiver.clips.isEmpty)
        // When two more seconds arrive
        feed(producer, seconds: 15, ended: [:], from: 13)
        // Then one clip of 4 s from 9.75 s, with exactly those samples
        XCTAssertEqual(receiver.clips.count, 1)
        let clip = receiver.clips.first
        XCTAssertEqual(clip?.type, .snoring)
        XCTAssertEqual(clip?.sampleRate, 16_000)
        XCTAssertEqual(clip?.samples.count, 64_000)
        XCTAssertEqual(clip?.startTime.timeIntervalSince(start) ?? 0, 9.75, accuracy: 1e-6)
        XCTAssertEqual(clip?.samples.first ?? 0, Float(156_000) / 1e6, accuracy: 1e-6)
        XCTAssertEqual(clip?.sessionId, session)
    }

    func test_short_events_and_inactive_types_make_no_clip() {
        let receiver = Receiver()
        let producer = SleepCycleSdk.createAudioClipsProducer(
            audioClipsConfig: AudioClipsConfig(activeTypes: [.snoring: EventTypeConfig(minDuration: 1)], clipLength: 2),
            receiver: receiver)
        feed(
            producer, seconds: 20,
            ended: [5: [event(.snoring, from: 4, to: 4.5)], 8: [event(.coughing, from: 6, to: 8)]])
        XCTAssertTrue(receiver.clips.isEmpty)
    }
}
