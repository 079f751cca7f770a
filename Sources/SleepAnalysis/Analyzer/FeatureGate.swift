import Foundation
import Synchronization

/// The features of the licence in force, readable synchronously from any thread.
final class FeatureGate: Sendable {
    private let current = Mutex<SleepAnalysisFeatures?>(nil)

    /// The features in force, nil before `initialize`.
    var features: SleepAnalysisFeatures? { current.withLock { $0 } }

    /// Replaces the features in force.
    func set(_ features: SleepAnalysisFeatures?) { current.withLock { $0 = features } }

    /// True when the SDK is initialized and the licence grants the feature.
    func isEnabled(_ feature: KeyPath<SleepAnalysisFeatures, Bool>) -> Bool {
        current.withLock { $0?[keyPath: feature] ?? false }
    }
}
