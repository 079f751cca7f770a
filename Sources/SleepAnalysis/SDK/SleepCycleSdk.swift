import Foundation

/// The seed SDK's API: static calls over one shared `SleepAnalyzer`.
///
/// Every call forwards to `SleepCycleSdk.analyzer`, so the seed's samples run unchanged and the SDK can be used
/// from any task. Calls the seed makes without `await` (`isFeatureEnabled`, `createLiveDataSource`,
/// `createFileDataSource`, `createAudioClipsProducer`) are synchronous. A process that analyses several nights at
/// once creates its own `SleepAnalyzer`s instead (one per night); they run beside this one.
public enum SleepCycleSdk {
    /// The analyzer behind the static API.
    public static let analyzer = SleepAnalyzer()

    // MARK: - State

    /// A stream of life-cycle states: the current state first, then every change.
    public static var stateStream: AsyncStream<SleepCycleSdkState> {
        get async { await analyzer.stateStream }
    }

    /// The current life-cycle state.
    public static var currentState: SleepCycleSdkState {
        get async { await analyzer.currentState }
    }

    // MARK: - Features

    /// True when the SDK is initialized and the licence grants `feature` (e.g. `\.audioEvents`).
    ///
    /// - Parameter feature: The feature, as a key path such as `\.audioEvents`.
    /// - Returns: False before `initialize` and after `deinitialize`.
    public static func isFeatureEnabled(_ feature: KeyPath<SleepAnalysisFeatures, Bool>) -> Bool {
        analyzer.isFeatureEnabled(feature)
    }
}
