import Foundation

/// Makes audio clips around events: a listener that keeps the last seconds of analysed audio and, when an event
/// of an active type closes having lasted at least its minimum duration, hands the receiver a clip of
/// `clipLength` seconds centred on the event (starting at the event when the event is longer than the clip).
///
/// Called on the analysis thread only.
final class AudioClipsProducer: AudioEventListener {
    private let config: AudioClipsConfig
    private let receiver: any AudioClipsReceiver
    private var ring: [Float] = []
    /// Time of `ring[0]`.
    private var ringStart: Date?
    private var sampleRate = AudioBatch.sampleRate
    private var pending: [(clip: DateInterval, type: EventType, sessionId: UUID)] = []

    /// Creates a producer.
    init(config: AudioClipsConfig, receiver: any AudioClipsReceiver) {
        self.config = config
        self.receiver = receiver
    }

    /// Seconds of audio kept: enough for a clip and the longest event that can still produce one.
    private var retainedSeconds: Double { max(config.clipLength, 1) * 2 + 120 }

    func onAudioAnalysisBatchCompleted(
        sessionId: UUID, audioSamples: [Float], audioSampleRate: Int, audioStartTime: Date, audioEndTime: Date,
        audioProbability: [EventType: Float], eventsStarted: [EventStartedInfo], eventsEnded: [EventEndedInfo],
        dbSpl: [Float]
    ) {
        guard config.clipLength > 0, audioSampleRate > 0 else { return }
        if ringStart == nil || sampleRate != audioSampleRate {
            ring = []
            ringStart = audioStartTime
            sampleRate = audioSampleRate
        }
        ring.append(contentsOf: audioSamples)
        let excess = ring.count - Int(retainedSeconds * Double(sampleRate))
        if excess > 0, let start = ringStart {
            ring.removeFirst(excess)
            ringStart = start.addingTimeInterval(Double(excess) / Double(sampleRate))
        }
        for ended in eventsEnded {
            guard let typeConfig = config.activeTypes[ended.type],
                ended.endTime.timeIntervalSince(ended.startTime) >= typeConfig.minDuration
            else { continue }
            pending.append((clipWindow(for: ended), ended.type, sessionId))
        }
        emitReadyClips(availableUntil: audioEndTime)
    }

    private func clipWindow(for event: EventEndedInfo) -> DateInterval {
        let duration = event.endTime.timeIntervalSince(event.startTime)
        let start =
            duration >= config.clipLength
            ? event.startTime
            : event.startTime.addingTimeInterval(-(config.clipLength - duration) / 2)
        return DateInterval(start: start, duration: config.clipLength)
    }

    private func emitReadyClips(availableUntil end: Date) {
        guard let ringStart else { return }
        var waiting: [(clip: DateInterval, type: EventType, sessionId: UUID)] = []
        for item in pending {
            guard item.clip.end <= end.addingTimeInterval(1e-6) else {
                waiting.append(item)
                continue
            }
            let first = max(0, Int((item.clip.start.timeIntervalSince(ringStart) * Double(sampleRate)).rounded()))
            let last = min(ring.count, first + Int((config.clipLength * Double(sampleRate)).rounded()))
            guard first < last else { continue }
            let clipStart = ringStart.addingTimeInterval(Double(first) / Double(sampleRate))
            receiver.onAudioClipProduced(
                AudioClip(
                    startTime: clipStart, type: item.type, samples: Array(ring[first..<last]), sampleRate: sampleRate,
                    sessionId: item.sessionId))
        }
        pending = waiting
    }
}
