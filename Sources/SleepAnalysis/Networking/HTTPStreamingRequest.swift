import Foundation
import Synchronization

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One HTTP request with URLSession (libcurl on Linux) whose body is handed over chunk by chunk as it arrives,
/// so that what was received before a failure is kept by the consumer (resumable downloads).
package enum HTTPStreamingRequest {
    /// Decides on a response: given its status and headers, returns the consumer of its body chunks or throws.
    package typealias ResponseHandler = @Sendable (Int, [String: String]) throws -> @Sendable (Data) throws -> Void

    /// Runs `request` to its end; cancelling the calling task cancels the request.
    ///
    /// - Parameters:
    ///   - request: The request.
    ///   - idleTimeout: Seconds without data before the request fails.
    ///   - onResponse: Checks the response and returns the body consumer.
    /// - Throws: What `onResponse` or the consumer threw, else the transport's error (a `URLError`; its user
    ///   info holds the URL, so describe it by its code, never with `String(describing:)`).
    package static func run(
        _ request: URLRequest, idleTimeout: TimeInterval, onResponse: @escaping ResponseHandler
    )
        async throws
    {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = idleTimeout
        configuration.urlCache = nil
        let delegate = StreamingDelegate(onResponse: onResponse)
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
    package static func contentRangeStart(_ headers: [String: String]) -> Int64? {
        guard let text = header("content-range", in: headers), text.lowercased().hasPrefix("bytes ") else {
            return nil
        }
        return Int64(text.dropFirst(6).prefix { $0.isNumber })
    }

    /// The value of header `name` (any case), trimmed.
    package static func header(_ name: String, in headers: [String: String]) -> String? {
        headers.first { $0.key.lowercased() == name }?.value.trimmingCharacters(in: .whitespaces)
    }
}

/// The error a response without an HTTP status ends in.
struct HTTPMissingResponseError: Error, CustomStringConvertible {
    var description: String { "the server gave no HTTP response" }
}

/// Receives one data task's events and resumes the waiting caller exactly once.
private final class StreamingDelegate: NSObject, URLSessionDataDelegate, Sendable {
    /// What the session's callbacks and the caller share.
    private struct Exchange {
        var consumer: (@Sendable (Data) throws -> Void)?
        var continuation: CheckedContinuation<Void, any Error>?
        var failure: (any Error)?
    }

    private let onResponse: HTTPStreamingRequest.ResponseHandler
    private let exchange = Mutex(Exchange())

    init(onResponse: @escaping HTTPStreamingRequest.ResponseHandler) {
        self.onResponse = onResponse
    }

    func setContinuation(_ continuation: CheckedContinuation<Void, any Error>) {
        exchange.withLock { $0.continuation = continuation }
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping (URLSession.ResponseDisposition) -> Void
    ) {
        guard let http = response as? HTTPURLResponse else {
            fail(HTTPMissingResponseError())
            completionHandler(.cancel)
            return
        }
        var headers: [String: String] = [:]
        for (key, value) in http.allHeaderFields {
            headers[String(describing: key)] = String(describing: value)
        }
        do {
            let consumer = try onResponse(http.statusCode, headers)
            exchange.withLock { $0.consumer = consumer }
            completionHandler(.allow)
        } catch {
            fail(error)
            completionHandler(.cancel)
        }
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let consumer = exchange.withLock { $0.failure == nil ? $0.consumer : nil }
        guard let consumer else { return }
        do {
            try consumer(data)
        } catch {
            fail(error)
            dataTask.cancel()
        }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let (continuation, failure) = exchange.withLock { exchange in
            defer { exchange.continuation = nil }
            return (exchange.continuation, exchange.failure)
        }
        if let failure {
            continuation?.resume(throwing: failure)
        } else if let error {
            continuation?.resume(throwing: error)
        } else {
            continuation?.resume()
        }
    }

    private func fail(_ error: any Error) {
        exchange.withLock { exchange in
            if exchange.failure == nil { exchange.failure = error }
        }
    }
}
