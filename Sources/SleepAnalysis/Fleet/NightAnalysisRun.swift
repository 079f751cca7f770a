import Foundation

/// One leased night analysed by a `SleepAnalyzer` of its own, in a storage directory of its own that is removed
/// afterwards. `abort` stops it early from another task.
///
/// Thread safety: `@unchecked Sendable`; `source` and `abortReason` are only touched under `lock`.
final class NightAnalysisRun: @unchecked Sendable {
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
    private let lock = NSLock()
    private var source: (any DataSource)?
    private var abortReason: AbortReason?

    /// A run of the leased night.
    init(lease: NightLease, configuration: NightWorkerConfiguration) {
        self.lease = lease
        self.configuration = configuration
    }

    /// Stops the run early; the first reason given wins.
    ///
    /// - Parameter reason: Why.
    func abort(_ reason: AbortReason) {
        let current = lock.withLock { () -> (any DataSource)? in
            if abortReason == nil { abortReason = reason }
            return source
        }
        current?.stop()
    }

    /// Analyses the night from its start to its end.
    ///
    /// - Returns: The result, the failure, or the abort.
    func run() async -> Outcome {
        let night = lease.job.submission
        let directory = configuration.storageRoot.appendingPathComponent(
            "job-\(lease.job.id)-\(lease.token.uuidString.prefix(8))", isDirectory: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let analyzer = SleepAnalyzer(name: "job-\(lease.job.id)")
        let outcome: Outcome
        do {
            try await analyzer.initialize(
                logLevel: .warning, logger: configuration.logger, apiKey: configuration.apiKey,
                storageDirectory: directory, trustedIssuerKeys: configuration.trustedIssuerKeys)
            let source = analyzer.createFileDataSource(
                audio: night.audio, accelerometer: night.accelerometer, heartRate: night.heartRate,
                startTime: night.startTime, pace: configuration.pace)
            if let reason = lock.withLock({ () -> AbortReason? in
                self.source = source
                return abortReason
            }) {
                await analyzer.deinitialize()
                return .aborted(reason)
            }
            let config = SleepAnalysisConfig(
                useAudio: true, useAccelerometer: night.accelerometer != nil, useHeartRate: night.heartRate != nil)
            try await analyzer.startAnalysis(config: config, using: source)
            await source.waitUntilFinished()
            if let reason = lock.withLock({ abortReason }) {
                outcome = .aborted(reason)
            } else {
                let result = try await analyzer.stopAnalysis()
                let sourceError = await analyzer.dataSourceError
                outcome = sourceError.map { .failed(.classify($0)) } ?? .analysed(result)
            }
        } catch {
            outcome = lock.withLock({ abortReason }).map(Outcome.aborted) ?? .failed(.classify(error))
        }
        await analyzer.deinitialize()
        return outcome
    }
}
