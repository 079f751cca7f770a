import Foundation
import SleepAnalysis

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Downloads an `http(s)` input into a local directory: into a partial file renamed when complete, resuming an
/// interrupted download with a `Range` request (guarded by `If-Range`, so a file changed on the server is fetched
/// again from its start), retrying transient failures with bounded back-off, and failing for good with a typed
/// `RemoteInputError` when the server refuses the file or it is too large.
///
/// ```swift
/// let fetcher = RemoteInputFetcher()
/// let local = try await fetcher.fetch(URL(string: "https://store.example/night-7.flac")!, into: cache)
/// ```
public struct RemoteInputFetcher: Sendable {
    /// The most bytes a file may have.
    public var maximumBytes: Int64
    /// Requests per fetch before giving up (one that made progress does not count against it).
    public var attempts: Int
    /// Seconds before the first retry; each next one waits twice as long, up to `maximumBackoff`.
    public var initialBackoff: TimeInterval
    /// The longest wait between two retries.
    public var maximumBackoff: TimeInterval
    /// Whole seconds without data before a request fails (and is retried); URLSession on Linux drops fractions.
    public var idleTimeout: TimeInterval
    /// The `User-Agent` sent.
    public var userAgent: String

    /// Creates a fetcher.
    ///
    /// - Parameters:
    ///   - maximumBytes: The most bytes a file may have (default 8 GiB: a night of uncompressed multichannel audio
    ///     fits).
    ///   - attempts: Requests per fetch without progress before giving up (at least 1).
    ///   - initialBackoff: Seconds before the first retry.
    ///   - maximumBackoff: The longest wait between retries.
    ///   - idleTimeout: Seconds without data before a request fails (rounded up to whole seconds, at least 1).
    ///   - userAgent: The `User-Agent` sent.
    public init(
        maximumBytes: Int64 = 8 << 30, attempts: Int = 5, initialBackoff: TimeInterval = 0.5,
        maximumBackoff: TimeInterval = 15, idleTimeout: TimeInterval = 60, userAgent: String = "sleepanalysis"
    ) {
        self.maximumBytes = max(1, maximumBytes)
        self.attempts = max(1, attempts)
        self.initialBackoff = max(0, initialBackoff)
        self.maximumBackoff = max(self.initialBackoff, maximumBackoff)
        self.idleTimeout = max(1, idleTimeout.rounded(.up))
        self.userAgent = userAgent
    }

    /// Downloads `url` into `directory` (created if needed), resuming a partial download left there by an
    /// earlier call.
    ///
    /// - Parameters:
    ///   - url: An `http` or `https` URL.
    ///   - directory: Where the file goes.
    ///   - name: The file's name; nil for the URL's last path component.
    /// - Returns: The downloaded file.
    /// - Throws: `RemoteInputError` (`isPermanent` tells whether trying later can help); `CancellationError`
    ///   when the task is cancelled (the partial file is kept).
    public func fetch(_ url: URL, into directory: URL, name: String? = nil) async throws -> URL {
        try RemoteInputURL.validate(url)
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            throw RemoteInputError.cannotStore("\(directory.path): \(error.localizedDescription)")
        }
        let file = RemoteInputPartialFile(
            finalURL: directory.appendingPathComponent(name ?? Self.fileName(of: url)), limit: maximumBytes)
        var failures = 0
        while true {
            try Task.checkCancellation()
            let before = file.size
            let failure: RemoteInputError
            do {
                try await request(url, into: file)
                if try file.finish() { return file.finalURL }
                failure = .unavailable("the connection ended before the whole file arrived", url: redacted(url))
            } catch let error as RemoteInputError {
                file.suspend()
                guard !error.isPermanent else {
                    file.discard()
                    throw error
                }
                failure = error
            } catch {
                file.suspend()
                try Task.checkCancellation()
                failure = Self.transportFailure(error, url: redacted(url))
            }
            failures = file.size > before ? 1 : failures + 1
            guard failures < attempts else { throw failure }
            let delay = min(maximumBackoff, initialBackoff * pow(2, Double(failures - 1)))
            try await Task.sleep(nanoseconds: UInt64(delay * 1_000_000_000))
        }
    }

    /// One request: from the partial file's end when it has a validator, else from zero.
    private func request(_ url: URL, into file: RemoteInputPartialFile) async throws {
        let kept = file.size
        let validator = kept > 0 ? file.validator : nil
        let offset = validator == nil ? 0 : kept
        var request = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: idleTimeout)
        request.setValue(userAgent, forHTTPHeaderField: "User-Agent")
        if let validator, offset > 0 {
            request.setValue("bytes=\(offset)-", forHTTPHeaderField: "Range")
            request.setValue(validator, forHTTPHeaderField: "If-Range")
        }
        let (source, limit) = (redacted(url), maximumBytes)
        try await HTTPStreamingRequest.run(request, idleTimeout: idleTimeout) { status, headers in
            let length = HTTPStreamingRequest.header("content-length", in: headers).flatMap { Int64($0) }
            let newValidator = Self.validator(headers)
            switch status {
            case 206 where offset > 0 && HTTPStreamingRequest.contentRangeStart(headers) == offset:
                let total = length.map { $0 + offset }
                if let total, total > limit { throw RemoteInputError.tooLarge(bytes: total, limit: limit, url: source) }
                try file.begin(at: offset, total: total, validator: newValidator)
            case 200:
                if let length, length > limit {
                    throw RemoteInputError.tooLarge(bytes: length, limit: limit, url: source)
                }
                try file.begin(at: 0, total: length, validator: newValidator)
            case 206, 416:
                // A range we did not ask for, or one past the file's end: start again from zero.
                file.discard()
                throw RemoteInputError.unavailable("HTTP \(status) to a resumed request", url: source)
            case 408, 425, 429, 500...599:
                throw RemoteInputError.unavailable("HTTP \(status)", url: source)
            default:
                throw RemoteInputError.refused(status: status, url: source)
            }
            return { try file.append($0, url: source) }
        }
    }

    /// The strong `ETag` of a response, else its `Last-Modified` (weak ETags cannot guard a range request).
    private static func validator(_ headers: [String: String]) -> String? {
        if let tag = HTTPStreamingRequest.header("etag", in: headers), !tag.hasPrefix("W/") { return tag }
        return HTTPStreamingRequest.header("last-modified", in: headers)
    }

    /// A transport failure (dropped connection, timeout, refused connection…) as a retryable error, described
    /// by its code alone: a `URLError`'s user info and description may hold the URL with its secrets.
    private static func transportFailure(_ error: any Error, url: String) -> RemoteInputError {
        guard let error = error as? URLError else { return .unavailable("no HTTP response", url: url) }
        let names: [URLError.Code: String] = [
            .timedOut: "timed out", .networkConnectionLost: "connection dropped",
            .cannotConnectToHost: "cannot connect", .cannotFindHost: "unknown host",
            .notConnectedToInternet: "no network", .secureConnectionFailed: "TLS failure",
        ]
        return .unavailable(names[error.code] ?? "transport error \(error.code.rawValue)", url: url)
    }

    private func redacted(_ url: URL) -> String { RemoteInputURL.redacted(url) }

    /// A file name from the URL's last path component, reduced to letters, digits, `.`, `-` and `_`.
    static func fileName(of url: URL) -> String {
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-_")
        let name = String(url.lastPathComponent.map { allowed.contains($0) ? $0 : "_" })
        return name.allSatisfy({ $0 == "." || $0 == "_" }) ? "input" : name
    }
}
