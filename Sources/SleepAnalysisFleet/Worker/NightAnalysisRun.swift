import Foundation
import SleepAnalysis
import Synchronization

/// One leased night analysed by a `SleepAnalyzer` of its own, in a storage directory of its own that is removed
/// afterwards, after its `http(s)` inputs are downloaded (also removed afterwards). `abort` stops it early from
/// another task.
///
/// Thread safety: what `abort` reaches (the source, the download, the reason) is kept in a mutex.
final class NightAnalysisRun: Sendable {
    /// Why a run was stopped early.
    enum AbortReason: Sendable, Hashable {
        /// The worker is stopping: give the job back.
        case released
        /// The lease is no longer ours (expired and claimed elsewhere, or the job was cancelled).
        case leaseLost
    }

    /// How a run ended.
    enum Outcome: Sendable {
        /// The whole night's result.
        case analysed(AnalysisResult)
        /// It failed.
        case failed(NightFailureClassification)
        /// `abort` stopped it.
        case aborted(AbortReason)
    }

    private let lease: NightLease
    private let configuration: NightWorkerConfiguration
    private let checkpoint: NightCheckpoint?
    /// What `abort` reaches from another task.
    private struct Abortable {
        var source: (any DataSource)?
        var download: Task<NightLocalInputs, any Error>?
        var abortReason: AbortReason?
    }

    private let abortable = Mutex(Abortable())

    /// The analyzer's storage directory (its journal is what checkpoints copy).
    let storageDirectory: URL
    /// Where the night's `http(s)` inputs are downloaded.
    let downloadDirectory: URL

    /// A run of the leased night, resumed from `checkpoint` when one is given.
    init(lease: NightLease, configuration: NightWorkerConfiguration, checkpoint: NightCheckpoint? = nil) {
        self.lease = lease
        self.configuration = configuration
        self.checkpoint = checkpoint
        let runName = "job-\(lease.job.id)-\(lease.token.uuidString.prefix(8))"
        storageDirectory = configuration.storageRoot.appendingPathComponent(runName, isDirectory: true)
        downloadDirectory = configuration.downloadDirectory.appendingPathComponent(runName, isDirectory: true)
    }

    /// Stops the run early; the first reason given wins.
    ///
    /// - Parameter reason: Why.
    func abort(_ reason: AbortReason) {
        let (current, fetching) = abortable.withLock { state in
            if state.abortReason == nil { state.abortReason = reason }
            return (state.source, state.download)
        }
        fetching?.cancel()
        current?.stop()
    }

    /// Analyses the night from its start (or from its checkpoint) to its end.
    ///
    /// - Returns: The result, the failure, or the abort.
    func run() async -> Outcome {
        // Nothing named outside the worker's input policy is opened or fetched, whoever queued it.
        do {
            try configuration.inputPolicy.check(lease.job.submission)
        } catch {
            return .failed(.classify(error))
        }
        let folders: NightRunFolders
        do {
            folders = try NightRunFolders.claim(
                storageDirectory.lastPathComponent, storageRoot: configuration.storageRoot,
                downloadDirectory: configuration.downloadDirectory)
        } catch {
            return .failed(.classify(error))
        }
        defer { folders.remove() }
        let inputs: NightLocalInputs
        do {
            inputs = try await fetchInputs()
        } catch {
            return abortReason.map(Outcome.aborted) ?? .failed(.classify(error))
        }
        let analyzer = SleepAnalyzer(name: "job-\(lease.job.id)")
        let outcome: Outcome
        do {
            if let checkpoint { try NightJournalSnapshot.restore(checkpoint, storageDirectory: storageDirectory) }
            try await analyzer.initialize(
                logLevel: .warning, logger: configuration.logger, apiKey: configuration.apiKey,
                storageDirectory: storageDirectory, trustedIssuerKeys: configuration.trustedIssuerKeys)
            outcome = try await analyse(with: analyzer, inputs: inputs)
        } catch {
            outcome = abortReason.map(Outcome.aborted) ?? .failed(.classify(error))
        }
        await analyzer.deinitialize()
        return outcome
    }

    /// Resumes the journaled session (falling back to a new one) or starts one, and waits for the night's end.
    private func analyse(with analyzer: SleepAnalyzer, inputs: NightLocalInputs) async throws -> Outcome {
        var source = try adopt(makeSource(analyzer, inputs))
        var sessionId: UUID?
        if checkpoint != nil, await analyzer.isResumePossible() {
            sessionId = try? await analyzer.resumeAnalysis(using: source).first?.sessionId
            if sessionId == nil {
                // The checkpoint does not fit (damaged, other files): analyse the night from its start.
                try await analyzer.clearActiveSessions()
                source = try adopt(makeSource(analyzer, inputs))
            }
        }
        let night = lease.job.submission
        let config = SleepAnalysisConfig(
            useAudio: true, useAccelerometer: night.accelerometer != nil, useHeartRate: night.heartRate != nil)
        let session: UUID
        if let sessionId {
            session = sessionId
        } else {
            session = try await analyzer.startAnalysis(config: config, using: source)
        }
        await source.waitUntilFinished()
        if let reason = abortReason { return .aborted(reason) }
        let result = try await analyzer.stopAnalysis(sessionId: session)
        if let sourceError = await analyzer.dataSourceError { return .failed(.classify(sourceError)) }
        return .analysed(result)
    }

    private func makeSource(_ analyzer: SleepAnalyzer, _ inputs: NightLocalInputs) -> any DataSource {
        analyzer.createFileDataSource(
            audio: inputs.audio, accelerometer: inputs.accelerometer, heartRate: inputs.heartRate,
            startTime: lease.job.submission.startTime, pace: configuration.pace)
    }

    /// Downloads the night's `http(s)` inputs in a task `abort` cancels.
    ///
    /// - Throws: `RemoteInputError`; `CancellationError` when the run was aborted.
    private func fetchInputs() async throws -> NightLocalInputs {
        let (night, fetcher, directory) = (lease.job.submission, configuration.fetcher, downloadDirectory)
        let logger = PackageLogger(threshold: configuration.logLevel, destination: configuration.logger).with(
            "job", String(lease.job.id))
        let task = Task {
            try await NightLocalInputs.fetch(night, fetcher: fetcher, into: directory, logger: logger)
        }
        let aborted = abortable.withLock { state in
            state.download = task
            return state.abortReason != nil
        }
        if aborted { task.cancel() }
        return try await task.value
    }

    /// Why the run was stopped, once `abort` was called.
    private var abortReason: AbortReason? { abortable.withLock { $0.abortReason } }

    /// Makes `source` the one `abort` stops.
    ///
    /// - Throws: `CancellationError` when the run was already aborted (the caller reports the abort).
    private func adopt(_ source: any DataSource) throws -> any DataSource {
        let aborted = abortable.withLock { state in
            state.source = source
            return state.abortReason != nil
        }
        if aborted { throw CancellationError() }
        return source
    }
}
