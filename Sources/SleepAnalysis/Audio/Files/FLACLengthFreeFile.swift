import CSndFile
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A FLAC file handed to libsndfile with the total-samples field of its STREAMINFO block read as 0 ("unknown"), so
/// that libsndfile decodes to the real end of the audio instead of stopping where the header says.
///
/// libsndfile never reads past the frame count a header gives: a FLAC whose header under-states its length would be
/// analysed short without a word. With the count unknown it decodes until the stream ends; ``AudioFileReader``
/// counts the frames itself and compares them with the header's `declaredTotalSamples` (a warning when they
/// differ). Everything else of the file is served unchanged, through `sf_open_virtual`.
final class FLACLengthFreeFile {
    /// The total samples the STREAMINFO block declares, or nil when it says 0 (unknown: a stream written to a pipe).
    let declaredTotalSamples: Int64?

    private let file: UnsafeMutablePointer<FILE>
    private let length: Int64
    /// The file's bytes 18..<26 (STREAMINFO's rate, channels, bits and total samples) with the total zeroed.
    private let patched: [UInt8]
    private static let patchOffset: Int64 = 18

    /// Opens `path` when it is a FLAC file whose first metadata block is STREAMINFO; nil otherwise (libsndfile then
    /// opens it as usual).
    init?(path: String) {
        guard let file = fopen(path, "rb") else { return nil }
        var header = [UInt8](repeating: 0, count: 26)
        guard fread(&header, 1, 26, file) == 26, header[0..<4] == [0x66, 0x4C, 0x61, 0x43],
            header[4] & 0x7F == 0, header[5..<8] == [0, 0, 34], fseeko(file, 0, SEEK_END) == 0
        else {
            fclose(file)
            return nil
        }
        self.file = file
        length = Int64(ftello(file))
        // Bytes 18...25: sample rate (20 bits), channels - 1 (3), bits - 1 (5), total samples (36).
        let word = header[18..<26].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        let total = Int64(word & 0xF_FFFF_FFFF)
        declaredTotalSamples = total > 0 ? total : nil
        let cleared = word & ~UInt64(0xF_FFFF_FFFF)
        patched = (0..<8).map { UInt8(truncatingIfNeeded: cleared >> (56 - 8 * UInt64($0))) }
        fseeko(file, 0, SEEK_SET)
    }

    deinit {
        fclose(file)
    }

    /// Opens the file through libsndfile; the returned handle uses this object, which must outlive it.
    func open(_ info: inout SF_INFO) -> OpaquePointer? {
        var io = SF_VIRTUAL_IO(
            get_filelen: { user in FLACLengthFreeFile.this(user).length },
            seek: { offset, whence, user in
                let this = FLACLengthFreeFile.this(user)
                guard fseeko(this.file, off_t(offset), whence) == 0 else { return -1 }
                return sf_count_t(ftello(this.file))
            },
            read: { buffer, count, user in
                let this = FLACLengthFreeFile.this(user)
                guard let buffer else { return 0 }
                let start = Int64(ftello(this.file))
                let got = fread(buffer, 1, Int(count), this.file)
                // Overlay the patched bytes where the read overlaps them.
                let end = start + Int64(got)
                let lower = max(start, FLACLengthFreeFile.patchOffset)
                let upper = min(end, FLACLengthFreeFile.patchOffset + 8)
                if lower < upper {
                    let bytes = buffer.assumingMemoryBound(to: UInt8.self)
                    for position in lower..<upper {
                        bytes[Int(position - start)] = this.patched[Int(position - FLACLengthFreeFile.patchOffset)]
                    }
                }
                return sf_count_t(got)
            },
            write: { _, _, _ in 0 },
            tell: { user in sf_count_t(ftello(FLACLengthFreeFile.this(user).file)) })
        return sf_open_virtual(&io, Int32(SFM_READ), &info, Unmanaged.passUnretained(self).toOpaque())
    }

    private static func this(_ user: UnsafeMutableRawPointer?) -> FLACLengthFreeFile {
        Unmanaged<FLACLengthFreeFile>.fromOpaque(user!).takeUnretainedValue()
    }
}
