import Foundation

/// One analysis engine: a licence, a storage directory and at most one running data source with its sessions.
///
/// Any number of analyzers run concurrently in one process, each with its own pipeline thread, journal, streams
/// and results, so a service can analyse many nights at once:
///
/// ```swift
/// let analyzer = SleepAnalyzer()
/// try await analyzer.initialize(apiKey: key, storageDirectory: jobDirectory)
/// let night = analyzer.createFileDataSource(audio: audioURL, accelerometer: nil)
/// try await analyzer.startAnalysis(config: SleepAnalysisConfig(), using: night)
/// await night.waitUntilFinished()
/// let result = try await analyzer.stopAnalysis()
/// await analyzer.deinitialize()
/// ```
///
/// Each analyzer needs a storage directory of its own (its session journal lives there): a second analyzer given
/// a directory in use fails to initialize with `.storageFailure`. `SleepCycleSdk` is the seed SDK's static facade
/// over one shared analyzer.
public actor SleepAnalyzer {
    /// The live streams of this analyzer's sessions.
    nonisolated let streams = AnalysisStreams()
    /// The licence's features, readable synchronously.
    nonisolated let featureGate = FeatureGate()

    /// What `initialize` set up.
    var context: AnalyzerContext?
    /// The running data source's pipeline, if any.
    var pipeline: AnalysisPipeline?
    /// The layout of the running pipeline.
    var pipelineLayout: SignalLayout?
    /// The channel separation of a running multi-channel source.
    var channelSeparation: ChannelSeparationConfig?
    /// Sessions running on the pipeline.
    var activeSessions: [UUID: SessionDescriptor] = [:]
    /// The directories of the last `initialize`, so `clear()` after `deinitialize()` still finds them.
    var lastLocations: StorageLocations?
    /// The error the last data source ended with, if any.
    var lastSourceError: SleepCycleSdkError?

    /// The life-cycle state; each change is published on `stateStream`.
    var state: SleepCycleSdkState = .uninitialized {
        didSet { if state != oldValue { streams.state.yield(state) } }
    }

    /// The analyzer's name in log messages (metadata `analyzer`), if it has one.
    public nonisolated let name: String?

    /// The clock live sessions read: session starts and ends, the smart alarm's arming, missing-input checks.
    nonisolated let clock: any AnalysisClock

    /// Creates an analyzer; call `initialize(apiKey:...)` before anything else.
    ///
    /// - Parameters:
    ///   - name: A name for its log messages (metadata `analyzer`), e.g. a job id; nil for none.
    ///   - clock: The clock for live sessions (the wall clock by default; tests pass a manual one). Recorded
    ///     nights run on their own timestamps whatever the clock.
    public init(name: String? = nil, clock: any AnalysisClock = SystemAnalysisClock()) {
        self.name = name
        self.clock = clock
    }

    // MARK: - State

    /// A stream of life-cycle states: the current state first, then every change.
    public var stateStream: AsyncStream<SleepCycleSdkState> {
        streams.state.makeStream(startingWith: state)
    }

    /// The current life-cycle state.
    public var currentState: SleepCycleSdkState { state }

    // MARK: - Features

    /// True when the analyzer is initialized and the licence grants `feature` (e.g. `\.audioEvents`).
    ///
    /// - Parameter feature: The feature, as a key path such as `\.audioEvents`.
    /// - Returns: False before `initialize` and after `deinitialize`.
    public nonisolated func isFeatureEnabled(_ feature: KeyPath<SleepAnalysisFeatures, Bool>) -> Bool {
        featureGate.isEnabled(feature)
    }

    /// The context, or `.notInitialized`.
    func requireContext() throws -> AnalyzerContext {
        guard let context else { throw SleepCycleSdkError.notInitialized }
        return context
    }

    /// Throws `.featureNotEnabled` unless the licence grants `feature`.
    func require(_ feature: KeyPath<SleepAnalysisFeatures, Bool>, named name: String) throws {
        let context = try requireContext()
        guard context.features[keyPath: feature] else { throw SleepCycleSdkError.featureNotEnabled(name) }
    }
}
