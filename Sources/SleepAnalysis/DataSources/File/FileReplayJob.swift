import Foundation

/// One run of a `FileDataSource`: the opened inputs and the loop that replays them to a sink on the source's
/// own thread.
///
/// Audio goes out in chunks of `chunkDuration` at the file's own rate and channels, numbered from frame 0.
/// Before each chunk, the sensor rows earlier than the chunk's end are delivered, so the sink gets everything
/// in the order a live capture would complete it (a chunk is complete at its end, a reading at its time).
/// Sensor rows after the audio (or without audio) go out in windows of the same length on the start time's
/// grid. The inputs are handed over to the worker thread at `run()` and used from there only, hence
/// `@unchecked Sendable`.
final class FileReplayJob: @unchecked Sendable {
    /// The length of an audio chunk and of a sensor-only window, in seconds.
    static let chunkDuration = 0.5

    private let audio: AudioFileReader?
    private let sensors: SensorFileStreams
    private let startTime: Date
    private var pacer: ReplayPacer
    private let lifecycle: SourceLifecycle
    private let sink: any SensorDataSink
    private let content: ContentTally
    private let reportLength: @Sendable ((declared: Int64, read: Int64)) -> Void

    init(
        audio: AudioFileReader?, sensors: SensorFileStreams, startTime: Date, pacer: ReplayPacer,
        lifecycle: SourceLifecycle, sink: any SensorDataSink, content: ContentTally,
        reportLength: @escaping @Sendable ((declared: Int64, read: Int64)) -> Void
    ) {
        self.content = content
        self.reportLength = reportLength
        audio?.digestsContent = true
        self.audio = audio
        self.sensors = sensors
        self.startTime = startTime
        self.pacer = pacer
        self.lifecycle = lifecycle
        self.sink = sink
    }

    /// Replays everything (or until stopped or failed), then finishes the sink and the lifecycle.
    func run() {
        var failure: SleepCycleSdkError?
        do {
            try replay()
        } catch let error as CSVError {
            failure = error.sdkError
        } catch let error as SleepCycleSdkError {
            failure = error
        } catch {
            failure = .dataSourceFailure(String(describing: error))
        }
        sink.finish(error: failure)
        lifecycle.markFinished()
    }

    private func replay() throws {
        sensors.publishContent(to: content)
        if let audio {
            pacer.begin(at: startTime)
            try replayAudio(audio)
        } else if let first = sensors.nextTimestamp {
            pacer.begin(at: windowEnd(containing: first).addingTimeInterval(-Self.chunkDuration))
        }
        while let next = sensors.nextTimestamp {
            let end = windowEnd(containing: next)
            guard pacer.wait(until: end, lifecycle: lifecycle) else { return }
            try sensors.deliverRows(before: end, to: sink)
            sensors.publishContent(to: content)
        }
    }

    private func replayAudio(_ audio: AudioFileReader) throws {
        let sampleRate = audio.sampleRate
        let channelCount = audio.channelCount
        let framesPerChunk = max(1, Int((sampleRate * Self.chunkDuration).rounded()))
        var firstFrameIndex: Int64 = 0
        while let samples = try audio.read(maxFrames: framesPerChunk) {
            content.publish("audio", length: audio.framesRead, digest: audio.content.hex)
            let frameCount = samples.count / channelCount
            let end = startTime.addingTimeInterval(Double(firstFrameIndex + Int64(frameCount)) / sampleRate)
            guard pacer.wait(until: end, lifecycle: lifecycle) else { return }
            try sensors.deliverRows(before: end, to: sink)
            sensors.publishContent(to: content)
            guard !lifecycle.isStopRequested else { return }
            sink.deliver(
                .audio(
                    AudioChunk(
                        samples: samples, channelCount: channelCount, sampleRate: sampleRate,
                        firstFrameIndex: firstFrameIndex)))
            firstFrameIndex += Int64(frameCount)
        }
        if let disagreement = audio.lengthDisagreement { reportLength(disagreement) }
    }

    /// The end of the window (on the start time's grid of `chunkDuration`) that holds `time`.
    private func windowEnd(containing time: Date) -> Date {
        let index = (time.timeIntervalSince(startTime) / Self.chunkDuration).rounded(.down) + 1
        var end = startTime.addingTimeInterval(index * Self.chunkDuration)
        while end <= time { end = end.addingTimeInterval(Self.chunkDuration) }
        return end
    }
}
