import CSleepDSP

/// The C core's lowest and highest sample of a block, ignoring NaN (vectorised: it runs on every sample).
enum DSPSampleRange {
    /// The smallest and largest non-NaN value of `samples`; `(+∞, −∞)` when there is none.
    static func of(_ samples: ArraySlice<Float>) -> (low: Float, high: Float) {
        var low = Float.infinity
        var high = -Float.infinity
        samples.withUnsafeBufferPointer { block in
            sa_sample_range(block.baseAddress, block.count, &low, &high)
        }
        return (low, high)
    }
}
