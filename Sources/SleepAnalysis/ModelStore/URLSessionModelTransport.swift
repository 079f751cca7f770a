import Foundation

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
                let start = Self.contentRangeStart(headers) ?? -1
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

    /// Runs one request; `onResponse` checks the status and returns the body consumer.
    private func run(
        _ request: URLRequest, url: URL,
        onResponse: @escaping @Sendable (Int, [String: String]) throws -> @Sendable (Data) throws -> Void
    ) async throws {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = idleTimeout
        configuration.urlCache = nil
        let delegate = StreamingDelegate(url: url, onResponse: onResponse)
        let session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: nil)
        defer { session.finishTasksAndInvalidate() }
        let task = session.dataTask(with: request)
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                delegate.setContinuation(continuation)
                task.resume()
            }
        } onCancel: {
            task.cancel()
        }
    }

    /// The first byte position of a `Content-Range: bytes a-b/n` header.
    static func contentRangeStart(_ headers: [String: String]) -> Int64? {
        guard let value = headers.first(where: { $0.key.lowercased() == "content-range" })?.value else { return nil }
        let text = value.trimmingCharacters(in: .whitespaces)
        guard text.lowercased().hasPrefix("bytes ") else { return nil }
        return Int64(text.dropFirst(6).prefix { $0.isNumber })
    }

    static func statusError(_ status: Int, _ url: URL) -> SleepCycleSdkError {
        .resourceDownloadFailed("\(url.absoluteString) answered HTTP \(status)")
    }
}

/// Collects a small body, refusing more than a limit.
private final class DataCollector: @unchecked Sendable {
    private let lock = NSLock()
    private let limit: Int
    private var data = Data()
    private var overflow = false

    init(limit: Int) { self.limit = limit }

    @Sendable func append(_ chunk: Data) throws {
        lock.lock()
        defer { lock.unlock() }
        guard data.count + chunk.count <= limit else {
            overflow = true
            throw SleepCycleSdkError.resourceDownloadFailed("the response is larger than \(limit) bytes")
        }
        data.append(chunk)
    }

    func result(_ url: URL) throws -> Data {
        lock.lock()
        defer { lock.unlock() }
        guard !overflow else {
            throw SleepCycleSdkError.resourceDownloadFailed("\(url.absoluteString) is larger than \(limit) bytes")
        }
        return data
    }
}

/// Receives one data task's events and resumes the waiting caller exactly once.
private final class StreamingDelegate: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    private let lock = NSLock()
    private let url: URL
    private let onResponse: @Sendable (Int, [String: String]) throws -> @Sendable (Data) throws -> Void
    private var consumer: (@Sendable (Data) throws -> Void)?
    private var continuation: CheckedContinuation<Void, any Error>?
    private var failure: (any Error)?

    init(url: URL, onResponse: @escaping @Sendable (Int, [String: String]) throws -> @Sendable (Data) throws -> Void) {
        self.url = url
        self.onResponse = onResponse
    }

    func setContinuation(_ continuation: CheckedContinuation<Void, any Error>) {
        lock.lock()
        self.continuation = continuation
        lock.unlock()
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping (URLSession.ResponseDisposition) -> Void
    ) {
        guard let http = response as? HTTPURLResponse else {
            fail(SleepCycleSdkError.resourceDownloadFailed("\(url.absoluteString) gave no HTTP response"))
            completionHandler(.cancel)
            return
        }
        var headers: [String: String] = [:]
        for (key, value) in http.allHeaderFields {
            headers[String(describing: key)] = String(describing: value)
        }
        do {
            let consumer = try onResponse(http.statusCode, headers)
            lock.lock()
            self.consumer = consumer
            lock.unlock()
            completionHandler(.allow)
        } catch {
            fail(error)
            completionHandler(.cancel)
        }
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        lock.lock()
        let consumer = failure == nil ? consumer : nil
        lock.unlock()
        guard let consumer else { return }
        do {
            try consumer(data)
        } catch {
            fail(error)
            dataTask.cancel()
        }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        lock.lock()
        let continuation = self.continuation
        self.continuation = nil
        let failure = self.failure
        lock.unlock()
        if let failure {
            continuation?.resume(throwing: failure)
        } else if let error {
            continuation?.resume(
                throwing: SleepCycleSdkError.resourceDownloadFailed(
                    "\(url.absoluteString): \(error.localizedDescription)"))
        } else {
            continuation?.resume()
        }
    }

    private func fail(_ error: any Error) {
        lock.lock()
        if failure == nil { failure = error }
        lock.unlock()
    }
}
