import Foundation
import SleepAnalysis

/// How a `NightWorker` works: its name, how many nights at once, its leases, its licence and where its analyzers
/// keep their state.
public struct NightWorkerConfiguration: Sendable {
    /// The worker's name in the queue (`leased_by`, `written_by`); default `<host>-<process id>`.
    public var name: String
    /// Nights analysed at once, each by its own `SleepAnalyzer` (at least 1).
    public var concurrency: Int
    /// Seconds a lease lasts unless renewed: how long a dead worker's job waits before another takes it.
    public var leaseDuration: TimeInterval
    /// Seconds between lease renewals (default a third of `leaseDuration`).
    public var renewalInterval: TimeInterval
    /// Seconds between looks at the queue while it is empty (a `NOTIFY` wakes the worker sooner).
    public var idlePollInterval: TimeInterval
    /// Seconds a stopping worker keeps analysing its running nights before releasing them to other workers.
    public var drainTimeout: TimeInterval
    /// Stop (finishing the running nights) as soon as no job is ready to claim, instead of waiting for more: for
    /// batch runs that drain the queue and exit.
    public var exitsWhenIdle: Bool
    /// The named queues this worker takes jobs from; empty for every queue.
    public var queues: [String]
    /// Which inputs the worker opens: a job naming a path outside `NightInputPolicy.localRoots`, or a URL of a
    /// scheme or host not allowed, fails without anything being read. `unconfined` by default; the command-line
    /// worker confines local inputs to its `--input-root`s.
    public var inputPolicy: NightInputPolicy
    /// Finished jobs older than this (seconds) are pruned every `pruneInterval` by the worker
    /// (`NightQueue.prune(olderThan:includingNights:)`, nights kept); nil never prunes.
    public var pruneAge: TimeInterval?
    /// Seconds between two prunes.
    public var pruneInterval: TimeInterval
    /// The directory under which each night gets a storage directory of its own (removed when it ends). Workers may
    /// share it: each run holds a lock beside its folder, and a worker starting on it removes the folders of runs
    /// whose process died (`kill -9`).
    public var storageRoot: URL
    /// The worker's download cache: each night's `http(s)` inputs are fetched into a directory of their own under
    /// it (resumed there after a dropped connection) and removed when the night ends.
    public var downloadDirectory: URL
    /// How `http(s)` inputs are fetched: size limit, retries, back-off, timeouts.
    public var fetcher: RemoteInputFetcher
    /// The licence key each analyzer is initialized with.
    public var apiKey: String
    /// Extra issuer public keys to trust (base64), as in `SleepAnalyzer.initialize`.
    public var trustedIssuerKeys: [String]
    /// How fast each night is replayed (as fast as possible by default; results are the same at every pace).
    public var pace: ReplayPace
    /// The lowest level the worker logs at (its analyzers log warnings and errors).
    public var logLevel: LogLevel
    /// Where log messages go; nil means standard error.
    public var logger: (any SleepAnalysisLogHandler)?

    /// Creates a configuration.
    ///
    /// - Parameters:
    ///   - apiKey: The licence key for the analyzers.
    ///   - trustedIssuerKeys: Extra issuer keys to trust.
    ///   - name: The worker's name; nil for `<host>-<process id>`.
    ///   - concurrency: Nights at once (values below 1 count as 1).
    ///   - leaseDuration: Seconds a lease lasts unless renewed.
    ///   - renewalInterval: Seconds between renewals; nil for a third of `leaseDuration`.
    ///   - idlePollInterval: Seconds between looks at an empty queue.
    ///   - drainTimeout: Seconds a stopping worker finishes running nights before releasing them.
    ///   - exitsWhenIdle: Stop once no job is ready to claim.
    ///   - queues: The named queues to take jobs from; empty for all.
    ///   - inputPolicy: Which inputs may be opened.
    ///   - pruneAge: Prune finished jobs older than this many seconds; nil for never.
    ///   - pruneInterval: Seconds between prunes.
    ///   - storageRoot: Where the analyzers' storage directories go; nil for `sleepanalysis-worker` in the
    ///     temporary directory.
    ///   - downloadDirectory: The download cache; nil for `downloads` in `storageRoot`.
    ///   - fetcher: How `http(s)` inputs are fetched.
    ///   - pace: How fast nights are replayed.
    ///   - logLevel: The lowest level logged.
    ///   - logger: Where log messages go; nil for standard error.
    public init(
        apiKey: String, trustedIssuerKeys: [String] = [], name: String? = nil, concurrency: Int = 1,
        leaseDuration: TimeInterval = 60, renewalInterval: TimeInterval? = nil, idlePollInterval: TimeInterval = 5,
        drainTimeout: TimeInterval = 30, exitsWhenIdle: Bool = false, queues: [String] = [],
        inputPolicy: NightInputPolicy = .unconfined, pruneAge: TimeInterval? = nil, pruneInterval: TimeInterval = 3_600,
        storageRoot: URL? = nil,
        downloadDirectory: URL? = nil,
        fetcher: RemoteInputFetcher = RemoteInputFetcher(userAgent: "sleepanalysis/\(SleepAnalysisVersion.current)"),
        pace: ReplayPace = .asFastAsPossible,
        logLevel: LogLevel = .info, logger: (any SleepAnalysisLogHandler)? = nil
    ) {
        let workerName = name ?? "\(ProcessInfo.processInfo.hostName)-\(ProcessInfo.processInfo.processIdentifier)"
        self.name = workerName
        self.apiKey = apiKey
        self.trustedIssuerKeys = trustedIssuerKeys
        self.concurrency = max(1, concurrency)
        self.leaseDuration = max(1, leaseDuration)
        self.renewalInterval = max(0.1, renewalInterval ?? self.leaseDuration / 3)
        self.idlePollInterval = max(0.05, idlePollInterval)
        self.drainTimeout = max(0, drainTimeout)
        self.exitsWhenIdle = exitsWhenIdle
        self.queues = queues
        self.inputPolicy = inputPolicy
        self.pruneAge = pruneAge.map { max(0, $0) }
        self.pruneInterval = max(1, pruneInterval)
        self.storageRoot =
            storageRoot
            ?? FileManager.default.temporaryDirectory.appendingPathComponent("sleepanalysis-worker", isDirectory: true)
        self.downloadDirectory =
            downloadDirectory ?? self.storageRoot.appendingPathComponent("downloads", isDirectory: true)
        self.fetcher = fetcher
        self.pace = pace
        self.logLevel = logLevel
        self.logger = logger
    }
}
