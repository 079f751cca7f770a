import CMicroHTTPD
import Foundation
import Synchronization

/// What every connection thread of one server shares: the router and the count of requests in progress.
final class HTTPServerCore: Sendable {
    let router: HTTPRouter
    let inProgress = Mutex(0)

    /// Bytes of an over-limit or refused body read and thrown away before the connection is closed instead.
    static let discardAllowance = 1 << 20

    init(router: HTTPRouter) { self.router = router }

    /// One call of libmicrohttpd's access handler for `exchange`: the header fields arrived (first call), a part
    /// of the body arrived, or the request is complete (`size` is 0). Returns false to close the connection.
    func handle(
        _ exchange: HTTPExchange, connection: OpaquePointer, method: String, data: UnsafePointer<CChar>?,
        size: UnsafeMutablePointer<Int>
    ) -> Bool {
        switch exchange.phase {
        case .new:
            return begin(exchange, connection: connection, method: method)
        case .responded:
            return false
        case .body:
            let count = size.pointee
            guard count == 0 else {
                size.pointee = 0
                exchange.received += count
                receive(exchange, bytes: UnsafeRawBufferPointer(start: data, count: data == nil ? 0 : count))
                return exchange.received <= exchange.limit + HTTPServerCore.discardAllowance
            }
            exchange.phase = .responded
            return queue(finish(exchange), on: connection)
        }
    }

    private func begin(_ exchange: HTTPExchange, connection: OpaquePointer, method: String) -> Bool {
        guard let method = HTTPMethod(rawValue: method) else {
            return respondAtOnce(exchange, .text(501, "Method not implemented"), on: connection)
        }
        guard let target = HTTPRequestTarget(exchange.rawTarget) else {
            return respondAtOnce(exchange, .text(400, "Malformed request target"), on: connection)
        }
        var headers = HTTPHeaderCollector()
        withUnsafeMutablePointer(to: &headers) { pointer in
            _ = MHD_get_connection_values(connection, .HEADER_KIND, httpHeaderIterator, pointer)
        }
        switch router.match(method, pathSegments: target.pathSegments) {
        case .notFound:
            return respondAtOnce(exchange, .text(404, "Not found"), on: connection)
        case .methodNotAllowed(let allowed):
            var response = HTTPResponse.text(405, "Method not allowed")
            response.headers["Allow"] = allowed.map(\.rawValue).joined(separator: ", ")
            return respondAtOnce(exchange, response, on: connection)
        case .found(let route, let parameters):
            let request = HTTPRequest(
                method: method, path: target.path, pathParameters: parameters, query: target.query,
                headers: headers.fields)
            exchange.request = request
            exchange.limit = route.maximumBodyBytes
            if let length = request.header("content-length").flatMap({ Int($0) }), length > route.maximumBodyBytes {
                return respondAtOnce(exchange, HTTPServerCore.tooLarge(route.maximumBodyBytes), on: connection)
            }
            switch route.handling {
            case .collect(let handler):
                exchange.handler = handler
            case .stream(let intake):
                do {
                    switch try intake(request) {
                    case .respond(let response): return respondAtOnce(exchange, response, on: connection)
                    case .receive(let sink): exchange.sink = sink
                    }
                } catch {
                    return respondAtOnce(exchange, response(to: error, for: request), on: connection)
                }
            }
            exchange.phase = .body
            return true
        }
    }

    private func receive(_ exchange: HTTPExchange, bytes: UnsafeRawBufferPointer) {
        guard exchange.rejection == nil else { return }
        guard exchange.received <= exchange.limit else {
            exchange.rejection = HTTPServerCore.tooLarge(exchange.limit)
            exchange.body = Data()
            exchange.sink?.cancel()
            exchange.sink = nil
            return
        }
        guard let sink = exchange.sink else {
            exchange.body.append(contentsOf: bytes)
            return
        }
        do {
            try sink.write(bytes)
        } catch {
            exchange.rejection = response(to: error, for: exchange.request)
            sink.cancel()
            exchange.sink = nil
        }
    }

    private func finish(_ exchange: HTTPExchange) -> HTTPResponse {
        if let rejection = exchange.rejection { return rejection }
        guard let request = exchange.request else { return .text(500, "Internal server error") }
        do {
            if let sink = exchange.sink {
                exchange.sink = nil
                return try sink.finish()
            }
            guard let handler = exchange.handler else { return .text(500, "Internal server error") }
            let complete = HTTPRequest(
                method: request.method, path: request.path, pathParameters: request.pathParameters,
                query: request.query, headers: request.headers, body: exchange.body)
            exchange.body = Data()
            return try handler(complete)
        } catch {
            return response(to: error, for: request)
        }
    }

    private func response(to error: any Error, for request: HTTPRequest?) -> HTTPResponse {
        if let error = error as? HTTPResponseError { return error.response }
        return router.errorResponse(error, request ?? HTTPRequest(method: .get, path: "/"))
    }

    private func respondAtOnce(
        _ exchange: HTTPExchange, _ response: HTTPResponse, on connection: OpaquePointer
    )
        -> Bool
    {
        exchange.phase = .responded
        return queue(response, on: connection)
    }

    private func queue(_ response: HTTPResponse, on connection: OpaquePointer) -> Bool {
        let created = response.body.withUnsafeBytes { bytes in
            MHD_create_response_from_buffer(
                bytes.count, UnsafeMutableRawPointer(mutating: bytes.baseAddress), .RESPMEM_MUST_COPY)
        }
        guard let created else { return false }
        defer { MHD_destroy_response(created) }
        for (name, value) in response.headers where name.lowercased() != "content-length" {
            _ = MHD_add_response_header(created, name, value)
        }
        return MHD_queue_response(connection, UInt32(clamping: response.status), created) == .YES
    }

    static func tooLarge(_ limit: Int) -> HTTPResponse {
        .text(413, "Request body larger than \(limit) bytes")
    }
}

/// The state of one request, from its request line to its completion (libmicrohttpd's per-request context).
/// Used by one connection thread at a time.
final class HTTPExchange {
    enum Phase {
        case new
        case body
        case responded
    }

    let rawTarget: String
    var phase = Phase.new
    var request: HTTPRequest?
    var limit = 0
    var received = 0
    var body = Data()
    var handler: (@Sendable (HTTPRequest) throws -> HTTPResponse)?
    var sink: (any HTTPRequestBodySink)?
    var rejection: HTTPResponse?

    init(rawTarget: String) { self.rawTarget = rawTarget }
}

/// Header fields gathered by `httpHeaderIterator`.
struct HTTPHeaderCollector {
    var fields: [String: String] = [:]
}

private let httpHeaderIterator: MHD_KeyValueIterator = { context, _, key, value in
    guard let context, let key else { return .YES }
    let collector = context.assumingMemoryBound(to: HTTPHeaderCollector.self)
    let name = String(cString: key).lowercased()
    let text = value.map { String(cString: $0) } ?? ""
    if let existing = collector.pointee.fields[name] {
        collector.pointee.fields[name] = existing + ", " + text
    } else {
        collector.pointee.fields[name] = text
    }
    return .YES
}

/// libmicrohttpd's URI-log callback: the request line arrived; its raw target becomes the request's context.
let httpRequestStarted:
    @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>?, OpaquePointer?) -> UnsafeMutableRawPointer? = {
        cls, uri, _ in
        guard let cls else { return nil }
        let core = Unmanaged<HTTPServerCore>.fromOpaque(cls).takeUnretainedValue()
        core.inProgress.withLock { $0 += 1 }
        let exchange = HTTPExchange(rawTarget: uri.map { String(cString: $0) } ?? "")
        return Unmanaged.passRetained(exchange).toOpaque()
    }

/// libmicrohttpd's completion callback: the request was answered or given up; its context is released.
let httpRequestCompleted: MHD_RequestCompletedCallback = { cls, _, context, _ in
    guard let cls, let context, let pointer = context.pointee else { return }
    context.pointee = nil
    let exchange = Unmanaged<HTTPExchange>.fromOpaque(pointer).takeRetainedValue()
    exchange.sink?.cancel()
    exchange.sink = nil
    Unmanaged<HTTPServerCore>.fromOpaque(cls).takeUnretainedValue().inProgress.withLock { $0 -= 1 }
}

/// libmicrohttpd's access handler: hands each call to the server's core.
let httpAccessHandler: MHD_AccessHandlerCallback = { cls, connection, _, method, _, data, size, context in
    guard let cls, let connection, let method, let size, let context, let pointer = context.pointee else {
        return .NO
    }
    let core = Unmanaged<HTTPServerCore>.fromOpaque(cls).takeUnretainedValue()
    let exchange = Unmanaged<HTTPExchange>.fromOpaque(pointer).takeUnretainedValue()
    return core.handle(exchange, connection: connection, method: String(cString: method), data: data, size: size)
        ? .YES : .NO
}
