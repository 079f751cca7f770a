import Foundation
import Synchronization

/// The default telemetry sink: appends each event as one JSON line to a local file and never touches the network.
///
/// The file is capped: when it would grow past `maximumBytes`, it is moved to `<file>.1` (replacing an older one)
/// and a new file is started, so at most twice the cap is kept on disk.
public final class SpoolFileTelemetrySink: TelemetrySink, Sendable {
    /// The spool file.
    public let fileURL: URL
    /// The size at which the file is rotated.
    public let maximumBytes: Int
    /// Held while the file is read or written, so lines and rotations never interleave.
    private let fileAccess = Mutex(())
    private let encoder: JSONEncoder

    /// Creates a sink that writes to `fileURL` (its directory is created on the first event).
    ///
    /// - Parameters:
    ///   - fileURL: The spool file.
    ///   - maximumBytes: The size cap (default 1 MiB).
    public init(fileURL: URL, maximumBytes: Int = 1 << 20) {
        self.fileURL = fileURL
        self.maximumBytes = max(1024, maximumBytes)
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        self.encoder = encoder
    }

    /// Appends `event` as one JSON line; a write failure drops the event (telemetry must never break analysis).
    ///
    /// - Parameter event: The event.
    public func record(_ event: TelemetryEvent) {
        guard var line = try? encoder.encode(event) else { return }
        line.append(0x0A)
        fileAccess.withLock { _ in try? append(line) }
    }

    /// The events in the spool file (oldest first), for inspection and tests; unreadable lines are skipped.
    ///
    /// - Returns: The events currently in the file (not the rotated one).
    public func spooledEvents() -> [TelemetryEvent] {
        guard let data = fileAccess.withLock({ _ in try? Data(contentsOf: fileURL) }) else { return [] }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return data.split(separator: 0x0A).compactMap { try? decoder.decode(TelemetryEvent.self, from: Data($0)) }
    }

    private func append(_ line: Data) throws {
        let manager = FileManager.default
        try manager.createDirectory(at: fileURL.deletingLastPathComponent(), withIntermediateDirectories: true)
        let size = ((try? manager.attributesOfItem(atPath: fileURL.path))?[.size] as? NSNumber)?.intValue ?? 0
        if size > 0, size + line.count > maximumBytes {
            let rotated = URL(fileURLWithPath: fileURL.path + ".1")
            try? manager.removeItem(at: rotated)
            try manager.moveItem(at: fileURL, to: rotated)
        }
        if !manager.fileExists(atPath: fileURL.path) {
            guard manager.createFile(atPath: fileURL.path, contents: nil) else {
                throw CocoaError(.fileWriteUnknown)
            }
        }
        let handle = try FileHandle(forWritingTo: fileURL)
        defer { try? handle.close() }
        try handle.seekToEnd()
        try handle.write(contentsOf: line)
    }
}
