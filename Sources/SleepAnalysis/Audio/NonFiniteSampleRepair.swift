/// Makes audio safe for the analysis: a NaN or infinite sample would spread through every filter, spectrum and
/// average it enters, so it is replaced by silence, which costs only the windows that hold it.
package enum NonFiniteSampleRepair {
    /// Replaces each NaN or infinite value of `samples` by 0.
    ///
    /// - Parameter samples: The samples, repaired in place.
    /// - Returns: How many were replaced.
    @discardableResult
    package static func zero(_ samples: inout [Float]) -> Int {
        // Count first, read-only: writing through a mutable buffer would copy an array that is shared (as a
        // delivered chunk's samples are), and real audio almost never needs the repair.
        if DSPSampleChecks.nonFiniteCount(samples) == 0 { return 0 }
        var repaired = 0
        samples.withUnsafeMutableBufferPointer { buffer in
            for index in buffer.indices where !buffer[index].isFinite {
                buffer[index] = 0
                repaired += 1
            }
        }
        return repaired
    }
}
