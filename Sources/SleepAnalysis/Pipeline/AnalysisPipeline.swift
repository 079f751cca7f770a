import Foundation
import Synchronization

/// The analysis of one running data source: source → resampling and batching → front end → sessions' engines.
///
/// Everything happens on one thread of the pipeline's own, fed through a bounded queue, so data and commands
/// (start or stop a session, update the alarm) are handled in one order: a replayed night gives the same results
/// at any pace, and the same as live. The actor talks to it through `perform`.
///
/// Nothing delivered is left behind unannounced: the source's `finish(error:)` returns (and so its
/// `waitUntilFinished()`) only once this thread has analysed everything the source delivered before it and called
/// the listeners with it; a `perform` runs after everything queued before it, so a session stopped there has had
/// every batch it covers handed to its listeners.
final class AnalysisPipeline: Sendable {
    /// A message for the pipeline thread.
    enum Message: Sendable {
        case data(SensorData)
        /// The source ended, with its error if any; `analysed` is signalled once everything before it is analysed
        /// and delivered (nil when nobody waits for that).
        case sourceFinished(SleepCycleSdkError?, analysed: CompletionSignal?)
        case perform(@Sendable (Core) -> Void)

        /// Samples a message's place in the queue stands for: audio by its sample count in half-seconds of
        /// 16-kHz mono (8,000 samples), at least 1; anything else 1.
        @Sendable static func queueWeight(_ message: Message) -> Int {
            guard case .data(.audio(let chunk)) = message else { return 1 }
            return max(1, chunk.samples.count / 8_000)
        }
    }

    /// The data source.
    let source: any DataSource
    /// Sixteen seconds of 16-kHz mono audio (32 half-second chunks), three of 44.1-kHz stereo: the same samples.
    private let queue = BoundedQueue<Message>(capacity: 32, weight: Message.queueWeight)
    private let finished = CompletionSignal()
    /// The pipeline thread's identity, once it runs: the source's finish must not wait for the pipeline on the
    /// pipeline thread itself (a listener that stops a source which finishes at once).
    private let threadIdentity = ThreadIdentity()

    /// Creates the pipeline of `source` and starts its thread (the source starts with `startSource()`).
    init(
        source: any DataSource, layout: SignalLayout, logger: SDKLogger, clock: any AnalysisClock,
        stereo: StereoSetup? = nil
    ) throws {
        self.source = source
        let core = try Core(source: source, layout: layout, logger: logger, clock: clock, stereo: stereo)
        let queue = self.queue
        let finished = self.finished
        let threadIdentity = self.threadIdentity
        let thread = Thread {
            threadIdentity.recordCurrent()
            LibraryThreads.run(as: .pipeline) { core.run(queue: queue) }
            finished.signal()
        }
        thread.name = "SleepAnalysis.pipeline"
        thread.stackSize = 4 << 20
        thread.start()
    }

    /// Starts the source delivering into the pipeline.
    ///
    /// - Throws: the source's error when it cannot start.
    func startSource() throws {
        try source.start(delivering: Sink(queue: queue, threadIdentity: threadIdentity))
    }

    /// Runs `body` on the pipeline thread, after everything queued before it, and returns its value.
    ///
    /// - Throws: `.analysisNotActive` when the pipeline was shut down.
    func perform<T: Sendable>(_ body: @escaping @Sendable (Core) -> T) async throws -> T {
        let outcome = await withCheckedContinuation { (continuation: CheckedContinuation<T?, Never>) in
            let accepted = queue.put(.perform { core in continuation.resume(returning: .some(body(core))) })
            if !accepted { continuation.resume(returning: .none) }
        }
        guard case .some(let value) = outcome else { throw SleepCycleSdkError.analysisNotActive }
        return value
    }

    /// Stops the source, lets the thread drain, and waits for it to end.
    func shutdown() async {
        source.stop()
        await source.waitUntilFinished()
        queue.close()
        await finished.wait()
    }

    /// Feeds the queue from the source's thread; blocks it while the queue is full.
    private final class Sink: SensorDataSink {
        let queue: BoundedQueue<Message>
        let threadIdentity: ThreadIdentity
        init(queue: BoundedQueue<Message>, threadIdentity: ThreadIdentity) {
            self.queue = queue
            self.threadIdentity = threadIdentity
        }
        func deliver(_ data: SensorData) { queue.put(.data(data)) }

        /// Queues the end and waits until the pipeline thread has analysed everything before it and called the
        /// listeners with it (the sources report themselves finished after this returns, so a caller of their
        /// `waitUntilFinished()` finds every batch delivered). The wait cannot hang: the thread drains whatever the
        /// queue accepted, even after it is closed; a queue already closed accepts nothing and nothing is waited
        /// for; and on the pipeline thread itself it is skipped.
        func finish(error: SleepCycleSdkError?) {
            let analysed = threadIdentity.isCurrent ? nil : CompletionSignal()
            guard queue.put(.sourceFinished(error, analysed: analysed)), let analysed else { return }
            analysed.waitBlocking()
        }
    }

    /// Which thread the pipeline thread is, once it runs.
    private final class ThreadIdentity: Sendable {
        private let identity = Mutex<pthread_t?>(nil)
        /// Records the calling thread as the pipeline thread.
        func recordCurrent() { identity.withLock { $0 = pthread_self() } }
        /// Whether the calling thread is the pipeline thread.
        var isCurrent: Bool {
            identity.withLock { $0.map { pthread_equal($0, pthread_self()) != 0 } ?? false }
        }
    }

    /// The pipeline's state, confined to its thread.
    final class Core: @unchecked Sendable {
        // Only touched on the pipeline thread; `@unchecked Sendable` so closures can carry it there.
        let source: any DataSource
        let layout: SignalLayout
        let logger: SDKLogger
        /// The clock of live sources' missing-input checks.
        let clock: any AnalysisClock
        private(set) var sessions: [UUID: SessionProcessor] = [:]
        private var assembler: BatchAssembler?
        private var frontEnds: [FrontEnd] = []
        /// Nil while the source runs; then the error it ended with, if any.
        private(set) var sourceEnded = false
        private(set) var sourceError: SleepCycleSdkError?
        /// Where analysis stopped because of bad input, if it did.
        private(set) var inputError: SleepCycleSdkError?
        private var analysedSamples: Int64 = 0
        /// What the input's quality costs the results.
        private var inputQuality = InputQualityMonitor()
        /// A replayed two-sleeper recording keeps its first batches (both channels) and sensor readings, in the
        /// order they came, so that a session started on a channel shortly after the source still covers the
        /// recording from its start; nil once the recording is past `earlyReplayLimit`, once both channels have a
        /// session, or for other sources.
        private var earlyInputs: [EarlyInput]?
        /// Something a replayed two-sleeper recording kept of its start.
        private enum EarlyInput {
            /// One batch of each channel.
            case audio([AudioBatch])
            /// Readings of the device's sensors (the primary sleeper's).
            case sensor(SensorData)
        }
        /// Seconds of a replayed stereo recording kept for sessions that start late.
        static let earlyReplayLimit: TimeInterval = 60

        /// Assigns events to sleepers on a two-sleeper source; nil otherwise.
        let stereoArbiter: StereoEventArbiter?

        init(
            source: any DataSource, layout: SignalLayout, logger: SDKLogger, clock: any AnalysisClock,
            stereo: StereoSetup?
        ) throws {
            self.clock = clock
            self.source = source
            self.layout = layout
            self.logger = logger
            if layout == .perChannel, let stereo {
                let makeEngine = stereo.makeChannelEventsEngine
                stereoArbiter = try StereoEventArbiter(config: stereo.separation) { _ in makeEngine() }
            } else {
                stereoArbiter = nil
            }
            if let stereoArbiter, source.isFinite {
                // Both channels' events are kept from the start for sessions that start a little later.
                stereoArbiter.attach(.primary)
                stereoArbiter.attach(.secondary)
                earlyInputs = []
            }
        }

        /// Where a session started now on a channel begins: the start of a replayed stereo recording while its
        /// first batches are kept, the end of the analysed audio otherwise.
        var channelSessionStart: Date { earlyInputs != nil ? source.startTime : analysedUntil }

        /// What the input so far lowers in `session`'s result (low sample rate, band-limited audio, repaired
        /// samples, unused sensor files).
        func inputWarnings(for session: SessionProcessor) -> [AnalysisWarning] {
            var warnings = inputQuality.warnings(
                start: source.startTime, audioEnd: analysedSamples > 0 ? analysedUntil : nil,
                bandLimitedEventModel: session.usesBandLimitedEventModel,
                channel: layout == .perChannel ? (session.channel == .secondary ? 1 : 0) : nil)
            if let length = (source as? FileDataSource)?.audioLengthDisagreement {
                warnings.insert(
                    AnalysisWarning(
                        kind: .audioLengthDiffersFromHeader,
                        message: "the audio file's header gives \(length.declared) frames, the file holds "
                            + "\(length.read): the \(length.read) frames it holds were analysed (a file cut off, or a "
                            + "header never finalised)",
                        count: Int(clamping: length.read)),
                    at: 0)
            }
            return warnings
        }

        /// Adds a session.
        func add(_ session: SessionProcessor) {
            sessions[session.sessionId] = session
            // A late session on a replayed stereo recording catches up on the kept batches of its channel and, for
            // the primary sleeper, the kept sensor readings (it skips those before its own start).
            for input in earlyInputs ?? [] {
                switch input {
                case .audio(let signals):
                    session.process(signals[session.channel == .secondary && signals.count > 1 ? 1 : 0])
                case .sensor(let data):
                    if session.channel != .secondary { deliver(data, to: session) }
                }
            }
            // Once both sleepers have a session nothing is late any more: the kept start (about 8 MiB of a
            // two-sleeper minute) is let go, and a session started again later begins where the analysis is.
            if earlyInputs != nil, Set(sessions.values.map(\.channel)).count == AnalysisChannel.allCases.count {
                earlyInputs = nil
            }
        }

        /// Removes a session and returns it.
        func remove(_ sessionId: UUID) -> SessionProcessor? { sessions.removeValue(forKey: sessionId) }

        /// The time of the end of the analysed audio (or of the source's start before any).
        var analysedUntil: Date {
            source.startTime.addingTimeInterval(Double(analysedSamples) / Double(AudioBatch.sampleRate))
        }

        func run(queue: BoundedQueue<Message>) {
            while true {
                let (message, closed) = queue.take(timeout: 1)
                if let message {
                    handle(message)
                } else if closed {
                    return
                } else if !source.isFinite && !sourceEnded {
                    for session in sessions.values { session.checkForMissingInput(now: clock.now) }
                }
            }
        }

        private func handle(_ message: Message) {
            switch message {
            case .perform(let body):
                body(self)
            case .sourceFinished(let error, let analysed):
                flushAudio()
                sourceEnded = true
                sourceError = error
                if let error { logger.error("data source ended with an error: \(error)") }
                analysed?.signal()
            case .data(let data):
                guard inputError == nil else { return }
                do {
                    try handle(data)
                } catch let error as SleepCycleSdkError {
                    inputError = error
                    logger.error("analysis stopped on bad input: \(error)")
                } catch {
                    inputError = .invalidInput("\(error)")
                    logger.error("analysis stopped on bad input: \(error)")
                }
            }
        }

        private func handle(_ data: SensorData) throws {
            switch data {
            case .audio(var chunk):
                inputQuality.inspect(&chunk)
                if assembler == nil {
                    let made = try BatchAssembler(
                        sourceRate: chunk.sampleRate, sourceChannelCount: chunk.channelCount, layout: layout)
                    frontEnds = try (0..<made.signalCount).map { _ in try FrontEnd() }
                    assembler = made
                }
                guard let assembler else { return }
                for batch in try assembler.append(chunk) { analyse(batch) }
            case .accelerometer(let samples):
                inputQuality.noteReadings(.accelerometer, times: samples.lazy.map(\.timestamp), start: source.startTime)
                deliverToSensorSessions(data)
            case .activityCounts(let samples):
                inputQuality.noteReadings(
                    .activityCounts, times: samples.lazy.map(\.timestamp), start: source.startTime)
                deliverToSensorSessions(data)
            case .heartRate(let samples):
                inputQuality.noteReadings(.heartRate, times: samples.lazy.map(\.timestamp), start: source.startTime)
                inputQuality.noteHeartRates(samples)
                deliverToSensorSessions(data)
            }
        }

        /// Gives sensor readings to the sessions that take them, and keeps them for late sessions while the start
        /// of a replayed stereo recording is kept.
        private func deliverToSensorSessions(_ data: SensorData) {
            earlyInputs?.append(.sensor(data))
            for session in sensorSessions { deliver(data, to: session) }
        }

        /// Gives sensor readings to one session (audio goes through `analyse`).
        private func deliver(_ data: SensorData, to session: SessionProcessor) {
            switch data {
            case .audio: break
            case .accelerometer(let samples): session.process(accelerometer: samples)
            case .activityCounts(let samples): session.process(activityCounts: samples)
            case .heartRate(let samples): session.process(heartRates: samples)
            }
        }

        /// The sessions that take the device's sensors: on a two-sleeper source the phone and the wearable belong
        /// to the primary sleeper, so the secondary session never gets their readings.
        private var sensorSessions: [SessionProcessor] {
            layout == .perChannel ? sessions.values.filter { $0.channel == .primary } : Array(sessions.values)
        }

        private func flushAudio() {
            guard let assembler else { return }
            do {
                for batch in try assembler.finish() { analyse(batch) }
            } catch {
                logger.error("flushing the resampler failed: \(error)")
            }
        }

        /// Analyses one batch of every signal: signal 0 feeds `.primary` sessions, signal 1 `.secondary`.
        private func analyse(_ signals: [[Float]]) {
            guard let length = signals.first?.count, length > 0 else { return }
            let firstSample = analysedSamples
            let startTime = source.startTime.addingTimeInterval(Double(firstSample) / Double(AudioBatch.sampleRate))
            var batches: [AudioBatch] = []
            for (index, samples) in signals.enumerated() {
                let features = frontEnds[index].process(samples)
                if index == 0 { inputQuality.inspect(features) }
                batches.append(
                    AudioBatch(
                        firstSampleIndex: firstSample, startTime: startTime, samples: samples, features: features))
            }
            analysedSamples += Int64(length)
            if earlyInputs != nil {
                earlyInputs?.append(.audio(batches))
                let analysedSeconds = Double(analysedSamples) / Double(AudioBatch.sampleRate)
                if analysedSeconds > Self.earlyReplayLimit { earlyInputs = nil }
            }
            if let stereoArbiter, batches.count == 2 {
                stereoArbiter.process(primary: batches[0], secondary: batches[1])
            }
            for session in sessions.values {
                let index = session.channel == .secondary && batches.count > 1 ? 1 : 0
                session.process(batches[index])
            }
        }
    }
}

/// What a two-sleeper pipeline needs: the separation rules and a way to make each channel's events engine.
struct StereoSetup: Sendable {
    /// How events are assigned to the sleepers.
    let separation: ChannelSeparationConfig
    /// Makes the events engine of one channel.
    let makeChannelEventsEngine: @Sendable () -> any AudioEventsEngine
}

/// A one-shot signal that async code can wait for.
final class CompletionSignal: Sendable {
    private let state = BoundedQueue<Bool>(capacity: 1)

    /// Marks the work done.
    func signal() { state.close() }

    /// Blocks the calling thread (a thread of its own, never the cooperative pool) until `signal()` was called.
    func waitBlocking() { _ = state.take() }

    /// Waits until `signal()` was called, without blocking the cooperative pool.
    func wait() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let waiter = Thread {
                _ = self.state.take()
                continuation.resume()
            }
            waiter.start()
        }
    }
}
