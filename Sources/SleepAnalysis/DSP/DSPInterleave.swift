import CSleepDSP

/// The C core's split of interleaved stereo into its two channels (vectorised).
enum DSPInterleave {
    /// The even samples of `interleaved` (the first channel) and the odd ones (the second); a last odd sample
    /// without its pair is left out.
    static func split(_ interleaved: [Float]) -> (first: [Float], second: [Float]) {
        let frames = interleaved.count / 2
        guard frames > 0 else { return ([], []) }
        var second: [Float] = []
        let first = [Float](unsafeUninitializedCapacity: frames) { firstBuffer, firstCount in
            second = [Float](unsafeUninitializedCapacity: frames) { secondBuffer, secondCount in
                interleaved.withUnsafeBufferPointer { source in
                    sa_deinterleave_pair(
                        source.baseAddress!, frames, firstBuffer.baseAddress!, secondBuffer.baseAddress!)
                }
                secondCount = frames
            }
            firstCount = frames
        }
        return (first, second)
    }
}
