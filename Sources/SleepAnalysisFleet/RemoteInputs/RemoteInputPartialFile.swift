import Foundation
import SleepAnalysis
import Synchronization

/// A download in progress: `<name>.partial`, appended to as bytes arrive, and beside it `<name>.partial.validator`,
/// the server's `ETag` (or `Last-Modified`) for those bytes, so that a resumed request (`If-Range`) gets the rest
/// of the same file or, if it changed, the whole new one. Renamed to `<name>` once complete.
final class RemoteInputPartialFile: Sendable {
    /// The open file and what was written to it.
    private struct Writing {
        var handle: FileHandle?
        var written: Int64 = 0
        var expected: Int64?
    }

    /// The partial file.
    let url: URL
    /// The complete file's place.
    let finalURL: URL
    private let validatorURL: URL
    private let limit: Int64
    private let writing = Mutex(Writing())

    /// The partial file for `finalURL` (nothing is created until `begin`).
    ///
    /// - Parameters:
    ///   - finalURL: Where the complete file goes.
    ///   - limit: The most bytes the file may have.
    init(finalURL: URL, limit: Int64) {
        self.finalURL = finalURL
        url = finalURL.appendingPathExtension("partial")
        validatorURL = url.appendingPathExtension("validator")
        self.limit = limit
    }

    /// The bytes kept from earlier attempts (0 if none).
    var size: Int64 {
        ((try? FileManager.default.attributesOfItem(atPath: url.path))?[.size] as? NSNumber)?.int64Value ?? 0
    }

    /// The validator of the kept bytes (`"etag"` or an HTTP date), or nil when they cannot be resumed safely.
    var validator: String? {
        guard let text = try? String(contentsOf: validatorURL, encoding: .utf8), !text.isEmpty else { return nil }
        return text
    }

    /// Starts receiving a body whose first byte is byte `offset` of the file: keeps the first `offset` bytes,
    /// drops the rest, records the response's validator, and appends from there.
    ///
    /// - Parameters:
    ///   - offset: The first byte's position (0 when the server sends the whole file).
    ///   - total: The whole file's size, when the response says it.
    ///   - validator: The response's `ETag` or `Last-Modified`, if any.
    /// - Throws: `RemoteInputError.cannotStore`.
    func begin(at offset: Int64, total: Int64?, validator: String?) throws {
        do {
            try writing.withLock { writing in
                if !FileManager.default.fileExists(atPath: url.path),
                    !FileManager.default.createFile(atPath: url.path, contents: nil)
                {
                    throw CocoaError(.fileWriteUnknown)
                }
                let handle = try FileHandle(forWritingTo: url)
                try handle.truncate(atOffset: UInt64(offset))
                try handle.seekToEnd()
                try Data((validator ?? "").utf8).write(to: validatorURL)
                try? writing.handle?.close()
                writing = Writing(handle: handle, written: offset, expected: total)
            }
        } catch {
            throw RemoteInputError.cannotStore("\(url.lastPathComponent): \(error.localizedDescription)")
        }
    }

    /// Appends received bytes.
    ///
    /// - Throws: `RemoteInputError.cannotStore` when writing fails, `.tooLarge` past the limit.
    func append(_ data: Data, url source: String) throws {
        try writing.withLock { writing in
            guard writing.written + Int64(data.count) <= limit else {
                throw RemoteInputError.tooLarge(bytes: writing.written + Int64(data.count), limit: limit, url: source)
            }
            do {
                guard let handle = writing.handle else { throw CocoaError(.fileWriteUnknown) }
                try handle.write(contentsOf: data)
            } catch {
                throw RemoteInputError.cannotStore("\(url.lastPathComponent): \(error.localizedDescription)")
            }
            writing.written += Int64(data.count)
        }
    }

    /// Closes the partial file and, when all the announced bytes arrived, renames it to `finalURL`.
    ///
    /// - Returns: True when the file is complete.
    /// - Throws: `RemoteInputError.cannotStore` when the rename fails.
    func finish() throws -> Bool {
        try writing.withLock { writing in
            try? writing.handle?.synchronize()
            try? writing.handle?.close()
            writing.handle = nil
            if let expected = writing.expected, writing.written != expected { return false }
            do {
                try? FileManager.default.removeItem(at: finalURL)
                try FileManager.default.moveItem(at: url, to: finalURL)
                try? FileManager.default.removeItem(at: validatorURL)
            } catch {
                throw RemoteInputError.cannotStore("\(finalURL.lastPathComponent): \(error.localizedDescription)")
            }
            return true
        }
    }

    /// Closes the file, keeping what was received for a resume.
    func suspend() {
        writing.withLock { writing in
            try? writing.handle?.close()
            writing.handle = nil
        }
    }

    /// Deletes the partial file and its validator (the next attempt starts from zero).
    func discard() {
        suspend()
        try? FileManager.default.removeItem(at: url)
        try? FileManager.default.removeItem(at: validatorURL)
    }
}
