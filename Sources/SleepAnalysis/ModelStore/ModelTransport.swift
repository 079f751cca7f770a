import Foundation

/// Fetches model-store files. One implementation per URL scheme family; tests use the real ones against a
/// loopback server or temporary directories.
protocol ModelTransport: Sendable {
    /// Fetches a small file whole (the manifest).
    ///
    /// - Parameters:
    ///   - url: The file.
    ///   - limit: The most bytes accepted.
    /// - Returns: Its bytes.
    /// - Throws: `SleepCycleSdkError.resourceDownloadFailed` on any transport, status or size failure.
    func fetch(_ url: URL, limit: Int) async throws -> Data

    /// Streams a file into `destination`, asking for bytes from `offset` on (an HTTP `Range: bytes=offset-`
    /// request when `offset > 0`). Calls `destination.begin(at:)` with the offset of the first byte actually sent
    /// (0 if the server ignored the range), then `append` for each chunk.
    ///
    /// - Throws: `SleepCycleSdkError.resourceDownloadFailed` on transport or status failures; what was received
    ///   before stays in `destination`.
    func download(_ url: URL, from offset: Int64, into destination: PartialModelFile) async throws
}
