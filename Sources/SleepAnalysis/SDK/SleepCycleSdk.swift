import Foundation

/// The SDK: set-up, sessions, live streams and results, behind one shared actor.
///
/// Every call is static (`SleepCycleSdk.startAnalysis(...)`); the static calls forward to the shared instance, so
/// the SDK can be used from any task. Calls the seed makes without `await` (`isFeatureEnabled`,
/// `createLiveDataSource`, `createFileDataSource`, `createAudioClipsProducer`) are synchronous.
public actor SleepCycleSdk {
    /// The one instance behind the static API.
    static let shared = SleepCycleSdk()
    /// The live streams, shared by every session.
    static let streams = SdkStreams()
    /// The licence's features, readable synchronously.
    static let featureGate = FeatureGate()

    /// What `initialize` set up.
    var context: SdkContext?
    /// The running data source's pipeline, if any.
    var pipeline: AnalysisPipeline?
    /// The layout of the running pipeline.
    var pipelineLayout: SignalLayout?
    /// The channel separation of a running multi-channel source.
    var channelSeparation: ChannelSeparationConfig?
    /// Sessions running on the pipeline.
    var activeSessions: [UUID: ActiveSession] = [:]
    /// The directories of the last `initialize`, so `clear()` after `deinitialize()` still finds them.
    var lastLocations: StorageLocations?
    /// The error the last data source ended with, if any.
    var lastSourceError: SleepCycleSdkError?

    /// The life-cycle state; each change is published on `stateStream`.
    var state: SleepCycleSdkState = .uninitialized {
        didSet { if state != oldValue { Self.streams.state.yield(state) } }
    }

    init() {}

    /// A session running on the pipeline, as the actor tracks it.
    struct ActiveSession: Sendable {
        let sessionId: UUID
        let channel: AnalysisChannel
        let config: SleepAnalysisConfig
        var smartAlarmConfig: SmartAlarmConfig?
        let startTime: Date
    }

    // MARK: - State

    /// A stream of life-cycle states: the current state first, then every change.
    public static var stateStream: AsyncStream<SleepCycleSdkState> {
        get async { await shared.makeStateStream() }
    }

    /// The current life-cycle state.
    public static var currentState: SleepCycleSdkState {
        get async { await shared.state }
    }

    private func makeStateStream() -> AsyncStream<SleepCycleSdkState> {
        Self.streams.state.makeStream(startingWith: state)
    }

    // MARK: - Features

    /// True when the SDK is initialized and the licence grants `feature` (e.g. `\.audioEvents`).
    ///
    /// - Parameter feature: The feature, as a key path such as `\.audioEvents`.
    /// - Returns: False before `initialize` and after `deinitialize`.
    public nonisolated static func isFeatureEnabled(_ feature: KeyPath<SleepAnalysisFeatures, Bool>) -> Bool {
        featureGate.isEnabled(feature)
    }

    /// The context, or `.notInitialized`.
    func requireContext() throws -> SdkContext {
        guard let context else { throw SleepCycleSdkError.notInitialized }
        return context
    }

    /// Throws `.featureNotEnabled` unless the licence grants `feature`.
    func require(_ feature: KeyPath<SleepAnalysisFeatures, Bool>, named name: String) throws {
        let context = try requireContext()
        guard context.features[keyPath: feature] else { throw SleepCycleSdkError.featureNotEnabled(name) }
    }
}
