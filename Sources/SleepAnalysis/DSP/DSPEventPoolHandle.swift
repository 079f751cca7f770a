import CSleepDSP

/// Owns one `sa_event_pool` (the C pooling of a window of log-mel frames into the event classifier's statistics)
/// and frees it when released. Scratch is sized at creation: no allocation per window. Not thread-safe: use one
/// instance from one task.
final class DSPEventPoolHandle {
    /// Length of the feature vector.
    let featureCount: Int
    private var handle: OpaquePointer?

    /// Creates the C pooling state.
    ///
    /// - Parameters:
    ///   - melBands: mel bands per frame (even).
    ///   - maximumFrames: the longest window.
    ///   - logFloor: log-mel values are clamped to this first.
    /// - Throws: `DSPError` ("event pooling over … bands, … frames") for an odd band count or a non-positive
    ///   window, or a memory failure.
    init(melBands: Int, maximumFrames: Int, logFloor: Float) throws(DSPError) {
        var created: OpaquePointer?
        try DSPError.check(
            sa_event_pool_init(&created, Int32(melBands), Int32(maximumFrames), logFloor),
            "event pooling over \(melBands) bands, \(maximumFrames) frames")
        handle = created
        featureCount = Int(sa_event_pool_feature_count(created))
    }

    deinit {
        sa_event_pool_destroy(&handle)
    }

    /// Pools a window of frames into `features` (`featureCount` values).
    ///
    /// - Parameters:
    ///   - logMel: frame-major natural-log mel energies, `frames` × mel bands.
    ///   - dbfs: one level per frame.
    ///   - frames: frames in the window (1...the longest window).
    ///   - firstFrame: the number of the window's first frame in its stream, so that what depends on one frame
    ///     alone is kept for the next, overlapping window (every window must then come from one stream); nil:
    ///     nothing is kept. The features are the same either way.
    ///   - features: where the features go.
    /// - Throws: `DSPError` ("sa_event_pool_compute_stream") for a window length out of range.
    func compute(
        logMel: UnsafePointer<Float>, dbfs: UnsafePointer<Float>, frames: Int, firstFrame: Int64?,
        into features: UnsafeMutablePointer<Float>
    ) throws(DSPError) {
        try DSPError.check(
            sa_event_pool_compute_stream(handle, logMel, dbfs, Int32(frames), firstFrame ?? -1, features),
            "sa_event_pool_compute_stream")
    }
}
