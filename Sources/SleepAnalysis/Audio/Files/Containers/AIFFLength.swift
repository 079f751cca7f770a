/// The lengths of an AIFF or uncompressed AIFF-C file: its `SSND` chunk's size (what libsndfile reads) against the
/// audio the file holds.
///
/// `COMM` gives the frame layout (channels and bits per sample); compressed AIFF-C files are left to libsndfile.
/// When the audio is longer than `SSND` says, both `SSND`'s size and `COMM`'s frame count are patched.
enum AIFFLength {
    /// AIFF-C compression types whose frames are channels × bytes per sample.
    private static let uncompressed: Set<[UInt8]> = Set(
        ["NONE", "sowt", "twos", "raw ", "fl32", "FL32", "fl64", "FL64", "in24", "in32"].map { Array($0.utf8) })
    private static let unknownSize: UInt32 = 0xFFFF_FFFF

    private struct Layout {
        var frameBytes: Int64
        /// The file offset of `COMM`'s frame count.
        var frameCountField: Int64
    }

    static func inspect(_ file: ContainerFile) -> ContainerLength.Finding? {
        guard let header = file.bytes(at: 0, count: 12) else { return nil }
        let isAIFC = header[8..<12].elementsEqual("AIFC".utf8)
        guard isAIFC || header[8..<12].elementsEqual("AIFF".utf8) else { return nil }
        var offset: Int64 = 12
        var layout: Layout?
        var sound: (sizeField: Int64, dataStart: Int64, declaredSize: UInt32, offsetField: Int64)?
        // A file of thousands of chunks before its audio is not a recording: give up and let libsndfile decide.
        for _ in 0..<4_096 where layout == nil || sound == nil {
            guard let chunk = file.bytes(at: offset, count: 8) else { return nil }
            let size = ContainerFile.uint32(chunk, at: 4, bigEndian: true)
            let bodyStart = offset + 8
            if chunk[0..<4].elementsEqual("COMM".utf8) {
                guard size >= 18, let common = file.bytes(at: bodyStart, count: isAIFC ? 22 : 18) else { return nil }
                if isAIFC, !uncompressed.contains(Array(common[18..<22])) { return nil }
                let channels = Int64(ContainerFile.uint16(common, at: 0, bigEndian: true))
                let bits = Int64(ContainerFile.uint16(common, at: 6, bigEndian: true))
                guard (1...2).contains(channels), (1...64).contains(bits) else { return nil }
                layout = Layout(frameBytes: channels * ((bits + 7) / 8), frameCountField: bodyStart + 2)
            } else if chunk[0..<4].elementsEqual("SSND".utf8) {
                guard size >= 8, let fields = file.bytes(at: bodyStart, count: 8) else { return nil }
                let dataOffset = Int64(ContainerFile.uint32(fields, at: 0, bigEndian: true))
                sound = (offset + 4, bodyStart + 8 + dataOffset, size, dataOffset)
            }
            offset = bodyStart + Int64(size) + Int64(size & 1)
        }
        guard let layout, let sound, sound.dataStart <= file.size else { return nil }
        let declared: Int64? =
            sound.declaredSize == unknownSize ? nil : max(0, Int64(sound.declaredSize) - 8 - sound.offsetField)
        let end = ContainerLength.audioEnd(
            of: file, dataStart: sound.dataStart, declaredEnd: sound.dataStart + (declared ?? 0),
            frameBytes: layout.frameBytes, bigEndian: true)
        let present = end - sound.dataStart
        let presentFrames = present / layout.frameBytes
        var patches: [ContainerLength.Patch] = []
        let chunkSize = present + 8 + sound.offsetField
        if present > (declared ?? -1) || (declared == nil && end < file.size), chunkSize < Int64(unknownSize) {
            patches = [
                .init(offset: sound.sizeField, bytes: ContainerFile.bytes(of: UInt32(chunkSize), bigEndian: true)),
                .init(
                    offset: layout.frameCountField,
                    bytes: ContainerFile.bytes(of: UInt32(presentFrames), bigEndian: true)),
            ]
        }
        return .init(
            declaredFrames: declared.map { $0 / layout.frameBytes }, presentFrames: presentFrames, patches: patches)
    }
}
