import Foundation

/// Standard output written with errors reported, never trapped or dropped.
enum StandardOutput {
    /// Writes `data` to standard output.
    ///
    /// - Parameter data: The bytes.
    /// - Throws: `CommandLineError` of kind `.outputFailed` (exit 74) when the write fails.
    static func write(_ data: Data) throws {
        do {
            try FileHandle.standardOutput.write(contentsOf: data)
        } catch {
            throw CommandLineError(
                kind: .outputFailed, message: "cannot write to standard output: \(error.localizedDescription)")
        }
    }

    /// Writes `text` and `terminator` to standard output, as `print` would, but reporting a failed write.
    ///
    /// - Parameters:
    ///   - text: The text.
    ///   - terminator: What follows it (a line break by default).
    /// - Throws: `CommandLineError` of kind `.outputFailed` (exit 74) when the write fails.
    static func print(_ text: String, terminator: String = "\n") throws {
        try write(Data((text + terminator).utf8))
    }
}
