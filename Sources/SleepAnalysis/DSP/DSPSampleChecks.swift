import CSleepDSP

/// The C core's checks of every sample (vectorised): the range of a block, its count of non-finite values and of
/// samples clipped at full scale.
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

    /// Adds to `counts[channel]`, for each channel of the interleaved `samples`, how many of its samples lie on a
    /// full-scale plateau: at least `level` in magnitude and equal to the same channel's sample one frame earlier
    /// (for the first frame, `previous[channel]`, which is then set to the last frame).
    ///
    /// `previous` and `counts` hold one value per channel (`previous` NaN before the first block); a trailing partial
    /// frame is not read, and nothing is counted when their sizes differ.
    static func fullScalePlateauCounts(_ samples: [Float], level: Float, previous: inout [Float], counts: inout [Int]) {
        let channels = previous.count
        guard channels > 0, counts.count == channels else { return }
        let frames = samples.count / channels
        samples.withUnsafeBufferPointer { block in
            previous.withUnsafeMutableBufferPointer { last in
                counts.withUnsafeMutableBufferPointer { sums in
                    sa_full_scale_plateau_counts(
                        block.baseAddress, frames, channels, level, last.baseAddress, sums.baseAddress)
                }
            }
        }
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
