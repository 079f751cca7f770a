/// The lengths of a FLAC file: the total samples its STREAMINFO block declares, read as "unknown" (0) by libsndfile
/// so that it decodes to the real end of the audio instead of stopping where the header says.
///
/// Only decoding can count a FLAC's frames, so the frames present are left to ``AudioFileReader``, which compares
/// them with the declared total after the last one.
enum FLACLength {
    /// STREAMINFO's bytes 18..<26 hold the sample rate (20 bits), channels − 1 (3), bits − 1 (5) and total samples
    /// (36).
    private static let fieldsOffset: Int64 = 18

    static func inspect(_ file: ContainerFile) -> ContainerLength.Finding? {
        // The first metadata block must be STREAMINFO (type 0) of 34 bytes.
        guard let header = file.bytes(at: 0, count: 26), header[4] & 0x7F == 0, header[5..<8].elementsEqual([0, 0, 34])
        else { return nil }
        let word = header[18..<26].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        let total = Int64(word & 0xF_FFFF_FFFF)
        let cleared = word & ~UInt64(0xF_FFFF_FFFF)
        let patch = ContainerLength.Patch(
            offset: fieldsOffset, bytes: (0..<8).map { UInt8(truncatingIfNeeded: cleared >> (56 - 8 * UInt64($0))) })
        return .init(declaredFrames: total > 0 ? total : nil, presentFrames: nil, patches: [patch])
    }
}
