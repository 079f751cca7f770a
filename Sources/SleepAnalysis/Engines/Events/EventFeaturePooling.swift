import CSleepDSP
import Foundation

/// Pools a window of front-end frames into the event classifier's feature vector (`sa_event_pool_compute`).
/// Owns its C state; not shared between threads.
final class EventFeaturePooling {
    /// Mel bands per frame.
    let melBandCount: Int
    /// The longest window (frames).
    let maximumFrames: Int
    /// Length of the feature vector.
    let featureCount: Int
    private var pool: OpaquePointer?

    /// Sets up pooling.
    ///
    /// - Parameters:
    ///   - melBandCount: Mel bands per frame (even).
    ///   - maximumFrames: The longest window.
    ///   - logFloor: Log-mel values are clamped to this first.
    /// - Throws: `SleepCycleSdkError.invalidConfiguration` for an odd band count or a non-positive window.
    init(melBandCount: Int, maximumFrames: Int, logFloor: Float) throws {
        self.melBandCount = melBandCount
        self.maximumFrames = maximumFrames
        var handle: OpaquePointer?
        let status = sa_event_pool_init(&handle, Int32(melBandCount), Int32(maximumFrames), logFloor)
        guard status == SA_OK else {
            let reason = String(cString: sa_status_message(status))
            throw SleepCycleSdkError.invalidConfiguration(
                "event pooling over \(melBandCount) bands, \(maximumFrames) frames: \(reason)")
        }
        pool = handle
        featureCount = Int(sa_event_pool_feature_count(handle))
    }

    deinit {
        sa_event_pool_destroy(&pool)
    }

    /// Pools `frames` frames (1...`maximumFrames`) into `features` (`featureCount` values).
    ///
    /// - Parameter firstFrame: The number of the window's first frame in its stream (0, 1, …), so that what
    ///   depends on one frame alone is computed once for the two overlapping windows that share it
    ///   (`sa_event_pool_compute_stream`; the features are the same either way). Every window pooled by one
    ///   instance must come from one stream. Nil: nothing is kept.
    func pool(
        logMel: UnsafePointer<Float>, dbfs: UnsafePointer<Float>, frames: Int, firstFrame: Int64? = nil,
        into features: UnsafeMutablePointer<Float>
    ) {
        let status = sa_event_pool_compute_stream(pool, logMel, dbfs, Int32(frames), firstFrame ?? -1, features)
        precondition(status == SA_OK, "window length is checked by the caller")
    }
}
