import Foundation

/// What an audio file's header says about its length against what its data holds, and the header bytes to replace
/// so that libsndfile reads the audio to its real end.
///
/// libsndfile takes a header's length on trust. A WAVE, AIFF or AU file whose size field under-states the data (a
/// recorder that updated its header now and then, or never: a size of 0) would replay as a shorter night, and a file
/// cut off would replay short, both without a word. Each format's reader (``RIFFWaveLength``, ``AIFFLength``,
/// ``SunAULength``, ``FLACLength``) finds where the audio really ends: for the chunked formats, the first frame
/// boundary after which the rest of the file is a chain of metadata chunks (a `LIST` or `id3 ` after the audio is
/// metadata, not sound), else the last whole frame of the file. ``AudioFileReader`` compares the frames read with
/// the header's count and reports a disagreement as a warning in the result.
enum ContainerLength {
    /// Bytes to write over the file's own at `offset` before libsndfile reads them.
    struct Patch: Equatable {
        var offset: Int64
        var bytes: [UInt8]
    }

    /// One file's lengths.
    struct Finding: Equatable {
        /// Frames the header declares; nil when it does not say (a placeholder size, a FLAC written to a pipe).
        var declaredFrames: Int64?
        /// Frames the data holds, counted from the bytes present; nil when only decoding can tell (FLAC).
        var presentFrames: Int64?
        /// Header bytes to replace so that libsndfile reads every frame present (empty when it would anyway).
        var patches: [Patch]
    }

    /// The lengths of the file at `path`, or nil when it is not a WAVE, AIFF, AU or FLAC file this reads (then
    /// libsndfile's own reading stands: RF64, Wave64, CAF, compressed WAVE and AIFF-C, Ogg, and so on).
    static func inspect(path: String) -> Finding? {
        guard let file = ContainerFile(path: path), let magic = file.bytes(at: 0, count: 4) else { return nil }
        switch magic {
        case Array("RIFF".utf8): return RIFFWaveLength.inspect(file)
        case Array("FORM".utf8): return AIFFLength.inspect(file)
        case Array(".snd".utf8): return SunAULength.inspect(file)
        case Array("fLaC".utf8): return FLACLength.inspect(file)
        default: return nil
        }
    }

    /// The most of a file's end searched for metadata chunks after the audio: a chain longer than this after a
    /// header that under-states the audio is read as audio.
    static let metadataSearchBytes: Int64 = 8 << 20

    /// Chunk identifiers that follow the audio in WAVE and AIFF files written by recorders and editors. A chain of
    /// chunks after the audio must begin with one of them (later chunks need only a printable identifier).
    static let metadataChunkIDs: Set<[UInt8]> = Set(
        [
            "LIST", "list", "id3 ", "ID3 ", "bext", "cue ", "smpl", "inst", "fact", "PEAK", "JUNK", "junk", "iXML",
            "axml", "_PMX", "acid", "plst", "cart", "umid", "DISP", "minf", "elm1", "regn", "FLLR", "PAD ", "levl",
            "MD5 ", "NAME", "AUTH", "(c) ", "ANNO", "COMT", "MARK", "INST", "APPL", "MIDI", "AESD", "CHAN", "basc",
            "trns", "cate",
        ].map { Array($0.utf8) })

    /// Where the audio of a chunked file ends: at the declared end when the rest of the file is metadata chunks (or
    /// nothing, or zeros), else at the first frame boundary after which it is, else at the file's last whole frame.
    ///
    /// - Parameters:
    ///   - dataStart: The file offset of the first audio byte.
    ///   - declaredEnd: Where the header says the audio ends (`dataStart` when it does not say).
    ///   - frameBytes: Bytes per frame (all channels), above 0.
    ///   - bigEndian: Whether chunk sizes are big-endian (AIFF) rather than little-endian (RIFF).
    static func audioEnd(
        of file: ContainerFile, dataStart: Int64, declaredEnd: Int64, frameBytes: Int64, bigEndian: Bool
    ) -> Int64 {
        let lastWholeFrame = dataStart + (max(0, file.size - dataStart) / frameBytes) * frameBytes
        guard declaredEnd < lastWholeFrame else { return min(declaredEnd, lastWholeFrame) }
        let windowStart = max(declaredEnd, file.size - metadataSearchBytes)
        guard let tail = file.bytes(at: windowStart, count: Int(file.size - windowStart)) else { return lastWholeFrame }
        /// Whether a chain of metadata chunks runs from after audio ending at `end` to the end of the file.
        func metadataFollows(audioEndingAt end: Int64) -> Bool {
            // A chunk after audio of an odd number of bytes starts after a pad byte.
            let chunk = Int(end + ((end - dataStart) & 1) - windowStart)
            return mayStartChunk(tail, at: chunk) && isChunkChain(tail, from: chunk, bigEndian: bigEndian)
        }
        if windowStart == declaredEnd, tail.allSatisfy({ $0 == 0 }) || metadataFollows(audioEndingAt: declaredEnd) {
            return declaredEnd
        }
        let firstBoundary = dataStart + ((windowStart - dataStart + frameBytes - 1) / frameBytes) * frameBytes
        let searchStart = firstBoundary == declaredEnd ? firstBoundary + frameBytes : firstBoundary
        for end in stride(from: searchStart, to: lastWholeFrame, by: Int(frameBytes))
        where metadataFollows(audioEndingAt: end) {
            return end
        }
        return lastWholeFrame
    }

    /// Whether the byte at `index` may begin a known metadata chunk identifier (a quick test before the full one).
    private static func mayStartChunk(_ bytes: [UInt8], at index: Int) -> Bool {
        index < bytes.count && firstBytesOfChunkIDs[Int(bytes[index])]
    }

    private static let firstBytesOfChunkIDs: [Bool] = (0..<256).map { byte in
        metadataChunkIDs.contains { $0[0] == UInt8(byte) }
    }

    /// Whether `bytes[start...]` is a chain of chunks (identifier, size, body, a pad byte after an odd body) that ends
    /// at the end of `bytes`, beginning with a known metadata chunk.
    static func isChunkChain(_ bytes: [UInt8], from start: Int, bigEndian: Bool) -> Bool {
        var offset = start
        var first = true
        while offset < bytes.count {
            guard offset + 8 <= bytes.count else { return false }
            let id = Array(bytes[offset..<offset + 4])
            guard first ? metadataChunkIDs.contains(id) : id.allSatisfy({ (0x20...0x7E).contains($0) }) else {
                return false
            }
            let size = Int64(ContainerFile.uint32(bytes, at: offset + 4, bigEndian: bigEndian))
            let bodyEnd = Int64(offset) + 8 + size
            guard bodyEnd <= Int64(bytes.count) else { return false }
            // The last chunk of a file may lack its pad byte.
            offset = Int(min(bodyEnd + (size & 1), Int64(bytes.count)))
            first = false
        }
        return !first && offset == bytes.count
    }
}

/// A file opened to read its header: its size and bytes at given offsets.
final class ContainerFile {
    /// The file's length in bytes.
    let size: Int64
    private let handle: FileHandle

    init?(path: String) {
        guard let handle = FileHandle(forReadingAtPath: path), let size = try? handle.seekToEnd() else { return nil }
        self.handle = handle
        self.size = Int64(size)
    }

    deinit {
        try? handle.close()
    }

    /// `count` bytes from `offset`, or nil when the file holds fewer.
    func bytes(at offset: Int64, count: Int) -> [UInt8]? {
        guard offset >= 0, count >= 0, offset + Int64(count) <= size,
            (try? handle.seek(toOffset: UInt64(offset))) != nil,
            let data = try? handle.read(upToCount: count), data.count == count
        else { return count == 0 && offset <= size ? [] : nil }
        return [UInt8](data)
    }

    /// The 32-bit unsigned integer at `index` of `bytes`.
    static func uint32(_ bytes: [UInt8], at index: Int, bigEndian: Bool) -> UInt32 {
        let four = bytes[index..<index + 4].map(UInt32.init)
        return bigEndian
            ? four[0] << 24 | four[1] << 16 | four[2] << 8 | four[3]
            : four[3] << 24 | four[2] << 16 | four[1] << 8 | four[0]
    }

    /// The 16-bit unsigned integer at `index` of `bytes`.
    static func uint16(_ bytes: [UInt8], at index: Int, bigEndian: Bool) -> UInt16 {
        bigEndian
            ? UInt16(bytes[index]) << 8 | UInt16(bytes[index + 1])
            : UInt16(bytes[index + 1]) << 8 | UInt16(bytes[index])
    }

    /// `value` as four bytes.
    static func bytes(of value: UInt32, bigEndian: Bool) -> [UInt8] {
        let little = (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * UInt32($0))) }
        return bigEndian ? little.reversed() : little
    }
}
