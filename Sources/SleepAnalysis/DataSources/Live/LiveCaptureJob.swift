import Foundation

/// One run of a `LiveDataSource`: the capture loop on the source's own thread. It owns the open capture, which
/// is handed over at `run()` and used from there only, hence `@unchecked Sendable`.
final class LiveCaptureJob: @unchecked Sendable {
    /// How long one wait for audio may last before the loop checks for a stop.
    static let waitMilliseconds: Int32 = 100
    /// How long without any audio before the device counts as stalled, by default.
    static let defaultStallSeconds = 10.0

    private let capture: ALSACapture
    private let frameLimit: Int64?
    private let stallSeconds: Double
    private let lifecycle: SourceLifecycle
    private let sink: any SensorDataSink

    init(
        capture: ALSACapture, frameLimit: Int64?, stallSeconds: Double = defaultStallSeconds,
        lifecycle: SourceLifecycle, sink: any SensorDataSink
    ) {
        self.capture = capture
        self.frameLimit = frameLimit
        self.stallSeconds = stallSeconds
        self.lifecycle = lifecycle
        self.sink = sink
    }

    /// Captures until stopped, the frame limit is reached, or the device fails; closes the device; then
    /// finishes the sink and the lifecycle.
    func run() {
        var failure: SleepCycleSdkError?
        do {
            try captureLoop()
        } catch {
            failure = error.sdkError
        }
        do {
            try capture.close()
        } catch {
            if failure == nil { failure = error.sdkError }
        }
        sink.finish(error: failure)
        lifecycle.markFinished()
    }

    private func captureLoop() throws(ALSAError) {
        var framesCaptured: Int64 = 0
        var lastAudio = DispatchTime.now().uptimeNanoseconds
        while !lifecycle.isStopRequested {
            let remaining = frameLimit.map { $0 - framesCaptured } ?? Int64(capture.periodFrames)
            guard remaining > 0 else { return }
            let samples = try capture.read(
                maxFrames: Int(min(remaining, Int64(capture.periodFrames))), timeoutMilliseconds: Self.waitMilliseconds)
            let now = DispatchTime.now().uptimeNanoseconds
            guard !samples.isEmpty else {
                if Double(now - lastAudio) / 1e9 > stallSeconds {
                    throw ALSAError(
                        operation: "snd_pcm_wait", device: capture.deviceName, code: 0,
                        message: "no audio for \(stallSeconds) s")
                }
                continue
            }
            lastAudio = now
            let chunk = AudioChunk(
                samples: samples, channelCount: capture.channelCount,
                sampleRate: Double(capture.sampleRate), firstFrameIndex: framesCaptured)
            framesCaptured += Int64(chunk.frameCount)
            sink.deliver(.audio(chunk))
        }
    }
}
