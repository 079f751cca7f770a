import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reads a text file one line at a time into a buffer of its own, so memory is one line whatever the file's length,
/// and a line is at most `maximumLineLength` bytes: a longer one is an error before more memory is spent on it.
///
/// Strips the line terminator (`\n` or `\r\n`) and a leading UTF-8 byte-order mark. Not thread-safe: use it from
/// one thread.
final class CSVLineReader {
    /// The longest line read, in bytes (terminator included): 1 MiB, thousands of times a sensor row.
    static let maximumLineLength = 1 << 20
    /// The file's path, for messages.
    let path: String
    /// The 1-based number of the line last returned (0 before the first).
    private(set) var lineNumber = 0
    /// The digest of the file's bytes read so far (terminators and byte-order mark included): a prefix of the file.
    private(set) var content = ContentDigest()

    private let file: UnsafeMutablePointer<FILE>
    /// Bytes read from the file and not yet returned: `buffer[start..<end]`. It starts at 64 KiB and doubles, up to
    /// `maximumLineLength` + 1 bytes, only for a line that needs it.
    private var buffer: UnsafeMutablePointer<UInt8>
    private var capacity = 1 << 16
    private var start = 0
    private var end = 0
    private var reachedEnd = false

    /// Opens `url` for reading.
    ///
    /// - Throws: `CSVError` `.missingFile` or `.unreadable` (a directory, a FIFO or device, no permission).
    init(url: URL) throws(CSVError) {
        path = url.path
        guard FileManager.default.fileExists(atPath: path) else {
            throw CSVError(path: path, line: 0, reason: .missingFile)
        }
        if let kind = RegularFileCheck.specialKind(of: path) {
            throw CSVError(path: path, line: 0, reason: .unreadable("it is \(kind), not a regular file"))
        }
        guard let file = fopen(path, "rb") else {
            throw CSVError(path: path, line: 0, reason: .unreadable(String(cString: strerror(errno))))
        }
        self.file = file
        buffer = .allocate(capacity: 1 << 16)
    }

    deinit {
        buffer.deallocate()
        fclose(file)
    }

    /// Returns the next line's bytes without its terminator (and without a byte-order mark on line 1), or nil at
    /// the end of the file. The bytes are valid until the next call.
    ///
    /// - Throws: `CSVError` `.unreadable` on an I/O error, `.malformedRow` for a line longer than
    ///   `maximumLineLength`.
    func nextLineBytes() throws(CSVError) -> UnsafeBufferPointer<UInt8>? {
        var scanned = start
        while true {
            if let newline = memchr(buffer + scanned, 0x0A, end - scanned) {
                let lineEnd = buffer.distance(to: newline.assumingMemoryBound(to: UInt8.self)) + 1
                return take(start..<lineEnd)
            }
            scanned = end
            if reachedEnd {
                guard start < end else { return nil }
                return take(start..<end)
            }
            if start > 0 {
                // Keep the partial line at the front, then fill the rest.
                (buffer).update(from: buffer + start, count: end - start)
                end -= start
                scanned -= start
                start = 0
            }
            if end == capacity {
                guard capacity <= Self.maximumLineLength else {
                    throw CSVError(
                        path: path, line: lineNumber + 1,
                        reason: .malformedRow("the line is longer than \(Self.maximumLineLength) bytes"))
                }
                let larger = min(2 * capacity, Self.maximumLineLength + 1)
                let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: larger)
                grown.update(from: buffer, count: end)
                buffer.deallocate()
                buffer = grown
                capacity = larger
            }
            let got = fread(buffer + end, 1, capacity - end, file)
            if got == 0 {
                if ferror(file) != 0 {
                    throw CSVError(
                        path: path, line: lineNumber + 1, reason: .unreadable(String(cString: strerror(errno))))
                }
                reachedEnd = true
            }
            end += got
        }
    }

    /// Returns the line in `range` (terminator included) without its terminator and byte-order mark, and moves on.
    private func take(_ range: Range<Int>) -> UnsafeBufferPointer<UInt8> {
        lineNumber += 1
        start = range.upperBound
        content.update(UnsafeRawBufferPointer(start: buffer + range.lowerBound, count: range.count))
        var count = range.count
        let first = buffer + range.lowerBound
        while count > 0, first[count - 1] == 0x0A || first[count - 1] == 0x0D { count -= 1 }
        var bytes = UnsafeBufferPointer(start: first, count: count)
        if lineNumber == 1, count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF {
            bytes = UnsafeBufferPointer(rebasing: bytes[3...])
        }
        return bytes
    }
}
