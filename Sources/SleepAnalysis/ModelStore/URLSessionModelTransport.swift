import Foundation
import Synchronization

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Fetches `http://` and `https://` model-store files with URLSession (libcurl on Linux), streaming each chunk
/// into the partial file as it arrives so an interrupted download can be resumed with a Range request.
struct URLSessionModelTransport: ModelTransport {
    /// Seconds without data before a request fails.
    let idleTimeout: TimeInterval

    /// Creates a transport.
    ///
    /// - Parameter idleTimeout: Seconds without data before a request fails (default 30).
    init(idleTimeout: TimeInterval = 30) {
        self.idleTimeout = idleTimeout
    }

    func fetch(_ url: URL, limit: Int) async throws -> Data {
        let collector = DataCollector(limit: limit)
        try await run(request(url, offset: 0), url: url) { status, _ in
            guard status == 200 else { throw Self.statusError(status, url) }
            return collector.append
        }
        return try collector.result(url)
    }

    func download(_ url: URL, from offset: Int64, into destination: PartialModelFile) async throws {
        try await run(request(url, offset: offset), url: url) { status, headers in
            switch status {
            case 206:
                let start = HTTPStreamingRequest.contentRangeStart(headers) ?? -1
                guard start == offset else {
                    throw SleepCycleSdkError.resourceDownloadFailed(
                        "\(url.absoluteString) answered the range request from byte \(start), not \(offset)")
                }
                try destination.begin(at: offset)
            case 200:
                try destination.begin(at: 0)
            default:
                throw Self.statusError(status, url)
            }
            return destination.append
        }
    }

    private func request(_ url: URL, offset: Int64) -> URLRequest {
        var request = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: idleTimeout)
        request.setValue("sleepanalysis/\(SleepAnalysisVersion.current)", forHTTPHeaderField: "User-Agent")
        if offset > 0 { request.setValue("bytes=\(offset)-", forHTTPHeaderField: "Range") }
        return request
    }

    /// Runs one request; `onResponse` checks the status and returns the body consumer. Transport failures become
    /// `resourceDownloadFailed`.
    private func run(
        _ request: URLRequest, url: URL, onResponse: @escaping HTTPStreamingRequest.ResponseHandler
    ) async throws {
        do {
            try await HTTPStreamingRequest.run(request, idleTimeout: idleTimeout, onResponse: onResponse)
        } catch let error as SleepCycleSdkError {
            throw error
        } catch is HTTPMissingResponseError {
            throw SleepCycleSdkError.resourceDownloadFailed("\(url.absoluteString) gave no HTTP response")
        } catch {
            throw SleepCycleSdkError.resourceDownloadFailed("\(url.absoluteString): \(error.localizedDescription)")
        }
    }

    static func statusError(_ status: Int, _ url: URL) -> SleepCycleSdkError {
        .resourceDownloadFailed(.init("\(url.absoluteString) answered HTTP \(status)", cause: .httpStatus(status)))
    }
}

/// Collects a small body, refusing more than a limit.
private final class DataCollector: Sendable {
    private struct Collected {
        var data = Data()
        var overflow = false
    }

    private let limit: Int
    private let collected = Mutex(Collected())

    init(limit: Int) { self.limit = limit }

    @Sendable func append(_ chunk: Data) throws {
        try collected.withLock { collected in
            guard collected.data.count + chunk.count <= limit else {
                collected.overflow = true
                throw SleepCycleSdkError.resourceDownloadFailed("the response is larger than \(limit) bytes")
            }
            collected.data.append(chunk)
        }
    }

    func result(_ url: URL) throws -> Data {
        let collected = self.collected.withLock { $0 }
        guard !collected.overflow else {
            throw SleepCycleSdkError.resourceDownloadFailed("\(url.absoluteString) is larger than \(limit) bytes")
        }
        return collected.data
    }
}
