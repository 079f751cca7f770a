/// The lengths of a Sun/NeXT AU file: the data size in its header against the bytes after the header.
///
/// The audio of an AU file runs from the data offset to the end of the file (the format has no chunks after it),
/// so the bytes present are the audio. A size of 0xFFFFFFFF says nothing (a stream written to a pipe).
enum SunAULength {
    /// Bytes per sample of the encodings libsndfile reads: µ-law, 8-, 16-, 24- and 32-bit PCM, float, double, A-law.
    private static let sampleBytes: [UInt32: Int64] = [1: 1, 2: 1, 3: 2, 4: 3, 5: 4, 6: 4, 7: 8, 27: 1]
    private static let unknownSize: UInt32 = 0xFFFF_FFFF

    static func inspect(_ file: ContainerFile) -> ContainerLength.Finding? {
        guard let header = file.bytes(at: 0, count: 24) else { return nil }
        let dataStart = Int64(ContainerFile.uint32(header, at: 4, bigEndian: true))
        let size = ContainerFile.uint32(header, at: 8, bigEndian: true)
        let channels = Int64(ContainerFile.uint32(header, at: 20, bigEndian: true))
        guard let bytes = sampleBytes[ContainerFile.uint32(header, at: 12, bigEndian: true)],
            (1...2).contains(channels),
            dataStart >= 24, dataStart <= file.size
        else { return nil }
        let frameBytes = bytes * channels
        let declared: Int64? = size == unknownSize ? nil : Int64(size)
        let present = ((file.size - dataStart) / frameBytes) * frameBytes
        var patches: [ContainerLength.Patch] = []
        if let declared, present > declared {
            // libsndfile stops at the declared size; "unknown" makes it read to the end of the file.
            patches = [.init(offset: 8, bytes: ContainerFile.bytes(of: unknownSize, bigEndian: true))]
        }
        return .init(
            declaredFrames: declared.map { $0 / frameBytes }, presentFrames: present / frameBytes, patches: patches)
    }
}
