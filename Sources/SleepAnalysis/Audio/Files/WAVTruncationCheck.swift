import Foundation

/// Detects a RIFF/WAVE file whose `data` chunk announces more bytes than the file holds.
///
/// libsndfile quietly shortens such a file to what is there (it only notes "should be" in its log), so a
/// recording cut off by a crash or a partial copy would replay as a shorter night without any error. Placeholder
/// sizes written by recorders that never finalised the header (0 and 0xFFFFFFFF) are not truncation.
enum WAVTruncationCheck {
    /// What the `data` chunk announces against what the file holds, when the file is a truncated WAVE file.
    struct Truncation: Equatable {
        /// Bytes of sample data the header announces.
        var declaredBytes: UInt64
        /// Bytes of sample data present.
        var presentBytes: UInt64
    }

    /// Returns the truncation of the WAVE file at `url`, or nil when it is complete or not a RIFF/WAVE file.
    static func truncation(of url: URL) -> Truncation? {
        guard let handle = try? FileHandle(forReadingFrom: url) else { return nil }
        defer { try? handle.close() }
        guard let fileSize = try? handle.seekToEnd(), (try? handle.seek(toOffset: 0)) != nil,
            let riff = try? handle.read(upToCount: 12), riff.count == 12,
            riff.prefix(4) == Data("RIFF".utf8), riff.suffix(4) == Data("WAVE".utf8)
        else { return nil }

        var offset: UInt64 = 12
        for _ in 0..<4_096 {
            guard (try? handle.seek(toOffset: offset)) != nil,
                let header = try? handle.read(upToCount: 8), header.count == 8
            else { return nil }
            let size = header.suffix(4).enumerated().reduce(UInt64(0)) { $0 | UInt64($1.element) << (8 * $1.offset) }
            let bodyStart = offset + 8
            if header.prefix(4) == Data("data".utf8) {
                guard size != 0, size != 0xFFFF_FFFF else { return nil }
                let present = fileSize > bodyStart ? fileSize - bodyStart : 0
                return size > present ? Truncation(declaredBytes: size, presentBytes: present) : nil
            }
            offset = bodyStart + size + (size & 1)
            if offset >= fileSize { return nil }
        }
        return nil
    }
}
