import CSleepDSP

/// The C core's checks of every sample (vectorised): the range of a block and its count of non-finite values.
enum DSPSampleChecks {
    /// The smallest and largest non-NaN value of `samples`; `(+∞, −∞)` when there is none.
    static func range(_ samples: ArraySlice<Float>) -> (low: Float, high: Float) {
        var low = Float.infinity
        var high = -Float.infinity
        samples.withUnsafeBufferPointer { block in
            sa_sample_range(block.baseAddress, block.count, &low, &high)
        }
        return (low, high)
    }

    /// How many of `samples` are NaN or infinite.
    static func nonFiniteCount(_ samples: [Float]) -> Int {
        samples.withUnsafeBufferPointer { sa_non_finite_count($0.baseAddress, $0.count) }
    }

    /// The summed energy (`exp` of each value) of the log-mel bands `bands` over every frame of `logMel`
    /// (frame-major, `bandCount` values a frame), in single precision to within 2e-7 relative.
    static func bandEnergy(_ logMel: [Float], bandCount: Int, frames: Int, bands: Range<Int>) -> Double {
        guard frames > 0, !bands.isEmpty, bands.upperBound <= bandCount, frames * bandCount <= logMel.count else {
            return 0
        }
        var total = 0.0
        logMel.withUnsafeBufferPointer { values in
            sa_band_energy_sum(values.baseAddress, frames, bandCount, bands.lowerBound, bands.count, &total)
        }
        return total
    }
}
