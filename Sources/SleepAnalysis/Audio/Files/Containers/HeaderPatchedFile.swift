import CSndFile
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An audio file handed to libsndfile with a few header bytes replaced, so that libsndfile reads the audio the
/// file holds rather than the length its header gives.
///
/// libsndfile never reads past the length a header states: a WAVE, AIFF or AU file whose size field under-states
/// the data, or a FLAC whose STREAMINFO does, would be analysed short without a word. ``ContainerLength`` works out
/// which bytes to replace (a data chunk's size, FLAC's total samples); everything else of the file is served
/// unchanged, through `sf_open_virtual`.
final class HeaderPatchedFile {
    private let file: UnsafeMutablePointer<FILE>
    private let length: Int64
    private let patches: [ContainerLength.Patch]

    /// Opens `path` to be served with `patches` applied; nil when it cannot be opened.
    init?(path: String, patches: [ContainerLength.Patch]) {
        guard let file = fopen(path, "rb"), fseeko(file, 0, SEEK_END) == 0 else { return nil }
        self.file = file
        length = Int64(ftello(file))
        self.patches = patches
        fseeko(file, 0, SEEK_SET)
    }

    deinit {
        fclose(file)
    }

    /// Opens the file through libsndfile; the returned handle uses this object, which must outlive it.
    func open(_ info: inout SF_INFO) -> OpaquePointer? {
        var io = SF_VIRTUAL_IO(
            get_filelen: { user in HeaderPatchedFile.this(user).length },
            seek: { offset, whence, user in
                let this = HeaderPatchedFile.this(user)
                guard fseeko(this.file, off_t(offset), whence) == 0 else { return -1 }
                return sf_count_t(ftello(this.file))
            },
            read: { buffer, count, user in
                let this = HeaderPatchedFile.this(user)
                guard let buffer else { return 0 }
                let start = Int64(ftello(this.file))
                let got = fread(buffer, 1, Int(count), this.file)
                this.overlay(buffer.assumingMemoryBound(to: UInt8.self), from: start, count: Int64(got))
                return sf_count_t(got)
            },
            write: { _, _, _ in 0 },
            tell: { user in sf_count_t(ftello(HeaderPatchedFile.this(user).file)) })
        return sf_open_virtual(&io, Int32(SFM_READ), &info, Unmanaged.passUnretained(self).toOpaque())
    }

    /// Writes the patched bytes over `count` bytes just read from file offset `start` into `bytes`.
    private func overlay(_ bytes: UnsafeMutablePointer<UInt8>, from start: Int64, count: Int64) {
        let end = start + count
        for patch in patches {
            let lower = max(start, patch.offset)
            let upper = min(end, patch.offset + Int64(patch.bytes.count))
            guard lower < upper else { continue }
            for position in lower..<upper {
                bytes[Int(position - start)] = patch.bytes[Int(position - patch.offset)]
            }
        }
    }

    private static func this(_ user: UnsafeMutableRawPointer?) -> HeaderPatchedFile {
        Unmanaged<HeaderPatchedFile>.fromOpaque(user!).takeUnretainedValue()
    }
}
