import CSleepDSP

/// The C core's split of interleaved stereo into its two channels (vectorised).
enum DSPInterleave {
    /// The frames of a two-channel block one channel after the other: the even samples of `interleaved` (the
    /// first channel), then the odd ones (the second). A last odd sample without its pair is left out.
    static func planar(_ interleaved: [Float]) -> [Float] {
        let frames = interleaved.count / 2
        guard frames > 0 else { return [] }
        return [Float](unsafeUninitializedCapacity: 2 * frames) { buffer, count in
            interleaved.withUnsafeBufferPointer { source in
                sa_deinterleave_pair(source.baseAddress!, frames, buffer.baseAddress!, buffer.baseAddress! + frames)
            }
            count = 2 * frames
        }
    }
}
