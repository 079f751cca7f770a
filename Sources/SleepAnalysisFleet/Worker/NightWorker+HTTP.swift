import Foundation
import SleepAnalysis
import Synchronization

/// A worker's HTTP endpoint: its Prometheus metrics and its health, for a scraper and a load balancer or
/// orchestrator, on an address of the operator's choosing (a local one: `127.0.0.1:9464`).
extension NightWorker {
    /// Serves `GET /metrics` (`metricsText()`, `text/plain; version=0.0.4`) and `GET /health` (`health()` as
    /// JSON, `Schemas/worker-health.schema.json`: 200 while the worker works, 503 once it stops or faults) on
    /// `configuration`'s address until the returned server is stopped.
    ///
    /// ```swift
    /// let endpoint = try worker.serveMetrics(on: HTTPServerConfiguration(host: "127.0.0.1", port: 9464))
    /// try await worker.run()
    /// endpoint.stop()
    /// ```
    ///
    /// - Parameter configuration: The address and port (0: any free one, `HTTPServer.port` tells which).
    /// - Returns: The running server.
    /// - Throws: `HTTPServerError` when the address cannot be listened on.
    public func serveMetrics(on configuration: HTTPServerConfiguration) throws -> HTTPServer {
        let router = HTTPRouter([
            .respond(.get, "/metrics") { [self] _ in
                guard let text = Self.wait({ await self.metricsText() }) else {
                    return .text(503, "the worker did not answer")
                }
                return HTTPResponse(
                    status: 200, headers: ["Content-Type": PrometheusText.contentType], body: Data(text.utf8))
            },
            .respond(.get, "/health") { [self] _ in
                guard let health = Self.wait({ await self.health() }) else {
                    return .text(503, "the worker did not answer")
                }
                return .json(health.isHealthy ? 200 : 503, try health.jsonDocument())
            },
        ])
        return try HTTPServer(configuration: configuration, router: router)
    }

    /// Waits on the calling thread (one of the HTTP server's, never the cooperative pool) for `work`, at most
    /// 10 s (nil after that).
    private static func wait<T: Sendable>(_ work: @escaping @Sendable () async -> T) -> T? {
        let box = Mutex<T?>(nil)
        let done = DispatchSemaphore(value: 0)
        Task {
            let value = await work()
            box.withLock { $0 = value }
            done.signal()
        }
        guard done.wait(timeout: .now() + 10) == .success else { return nil }
        return box.withLock { $0 }
    }
}
