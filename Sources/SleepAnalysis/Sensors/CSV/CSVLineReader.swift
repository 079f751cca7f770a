import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reads a text file one line at a time through `getline`, so memory is one line whatever the file's length.
///
/// Strips the line terminator (`\n` or `\r\n`) and a leading UTF-8 byte-order mark. Not thread-safe: use it from
/// one thread.
final class CSVLineReader {
    /// The file's path, for messages.
    let path: String
    /// The 1-based number of the line last returned (0 before the first).
    private(set) var lineNumber = 0
    /// The digest of the file's bytes read so far (terminators and byte-order mark included): a prefix of the file.
    private(set) var content = ContentDigest()

    private let file: UnsafeMutablePointer<FILE>
    private var buffer: UnsafeMutablePointer<CChar>?
    private var capacity = 0

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
    }

    deinit {
        free(buffer)
        fclose(file)
    }

    /// Returns the next line's bytes without its terminator (and without a byte-order mark on line 1), or nil at
    /// the end of the file. The bytes are valid until the next call.
    ///
    /// - Throws: `CSVError` `.unreadable` on an I/O error.
    func nextLineBytes() throws(CSVError) -> UnsafeBufferPointer<UInt8>? {
        let length = getline(&buffer, &capacity, file)
        if length < 0 {
            if ferror(file) != 0 {
                throw CSVError(path: path, line: lineNumber + 1, reason: .unreadable(String(cString: strerror(errno))))
            }
            return nil
        }
        lineNumber += 1
        guard let buffer else { return UnsafeBufferPointer(start: nil, count: 0) }
        content.update(UnsafeRawBufferPointer(start: buffer, count: length))
        var count = length
        while count > 0, buffer[count - 1] == 0x0A || buffer[count - 1] == 0x0D { count -= 1 }
        var bytes = UnsafeRawBufferPointer(start: buffer, count: count).bindMemory(to: UInt8.self)
        if lineNumber == 1, count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF {
            bytes = UnsafeBufferPointer(rebasing: bytes[3...])
        }
        return bytes
    }
}
