import Foundation

/// Pools a window of front-end frames into the event classifier's feature vector (`DSPEventPoolHandle`, that is
/// `sa_event_pool_compute`). Owns its C state; not shared between threads.
package final class EventFeaturePooling {
    /// Mel bands per frame.
    let melBandCount: Int
    /// The longest window (frames).
    let maximumFrames: Int
    /// Length of the feature vector.
    package let featureCount: Int
    private let handle: DSPEventPoolHandle

    /// Sets up pooling.
    ///
    /// - Parameters:
    ///   - melBandCount: Mel bands per frame (even).
    ///   - maximumFrames: The longest window.
    ///   - logFloor: Log-mel values are clamped to this first.
    /// - Throws: `SleepCycleSdkError.invalidConfiguration` for an odd band count or a non-positive window.
    package init(melBandCount: Int, maximumFrames: Int, logFloor: Float) throws {
        self.melBandCount = melBandCount
        self.maximumFrames = maximumFrames
        do throws(DSPError) {
            handle = try DSPEventPoolHandle(melBands: melBandCount, maximumFrames: maximumFrames, logFloor: logFloor)
        } catch {
            throw SleepCycleSdkError.invalidConfiguration(error.description)
        }
        featureCount = handle.featureCount
    }

    /// Pools `frames` frames (1...`maximumFrames`) into `features` (`featureCount` values).
    ///
    /// - Parameter firstFrame: The number of the window's first frame in its stream (0, 1, …), so that what
    ///   depends on one frame alone is computed once for the two overlapping windows that share it
    ///   (`sa_event_pool_compute_stream`; the features are the same either way). Every window pooled by one
    ///   instance must come from one stream. Nil: nothing is kept.
    package func pool(
        logMel: UnsafePointer<Float>, dbfs: UnsafePointer<Float>, frames: Int, firstFrame: Int64? = nil,
        into features: UnsafeMutablePointer<Float>
    ) {
        do throws(DSPError) {
            try handle.compute(logMel: logMel, dbfs: dbfs, frames: frames, firstFrame: firstFrame, into: features)
        } catch {
            preconditionFailure("window length is checked by the caller")
        }
    }
}
