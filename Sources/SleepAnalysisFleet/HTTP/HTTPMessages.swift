import Foundation

/// The request methods the HTTP server routes.
public enum HTTPMethod: String, Sendable, Hashable, CaseIterable {
    /// `GET`.
    case get = "GET"
    /// `HEAD` (answered like `GET`, without the body).
    case head = "HEAD"
    /// `POST`.
    case post = "POST"
    /// `PUT`.
    case put = "PUT"
    /// `DELETE`.
    case delete = "DELETE"
    /// `PATCH`.
    case patch = "PATCH"
    /// `OPTIONS`.
    case options = "OPTIONS"
}

/// One HTTP request as a route's handler sees it: method, decoded path, the values of the route's `{name}`
/// segments, the query, the header fields and, for routes that collect it, the body.
public struct HTTPRequest: Sendable {
    /// The method.
    public let method: HTTPMethod
    /// The path, percent-decoded segment by segment (without the query).
    public let path: String
    /// The values of the route pattern's `{name}` segments, percent-decoded.
    public let pathParameters: [String: String]
    /// The query's fields, percent-decoded (`+` is a space); the last of a repeated name wins.
    public let query: [String: String]
    /// The header fields, names in lower case; a repeated field's values joined with `, `.
    public let headers: [String: String]
    /// The body of a route that collects it (`HTTPRoute.respond`), empty otherwise.
    public let body: Data

    /// Creates a request (the server makes them; tests and fuzzers may too).
    ///
    /// - Parameters:
    ///   - method: The method.
    ///   - path: The decoded path.
    ///   - pathParameters: The route's `{name}` values.
    ///   - query: The query's fields.
    ///   - headers: The header fields (names are lower-cased here).
    ///   - body: The collected body.
    public init(
        method: HTTPMethod, path: String, pathParameters: [String: String] = [:], query: [String: String] = [:],
        headers: [String: String] = [:], body: Data = Data()
    ) {
        self.method = method
        self.path = path
        self.pathParameters = pathParameters
        self.query = query
        self.headers = Dictionary(headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { $0 + ", " + $1 })
        self.body = body
    }

    /// The value of a header field, by case-insensitive name.
    ///
    /// - Parameter name: The field's name.
    /// - Returns: Its value, or nil when the request has no such field.
    public func header(_ name: String) -> String? { headers[name.lowercased()] }
}

/// What the server sends back: a status, header fields and a body.
public struct HTTPResponse: Sendable, Hashable {
    /// The status code (200, 404, …).
    public var status: Int
    /// The header fields. `Content-Length` (and `Date`) are the server's: set here they are ignored.
    public var headers: [String: String]
    /// The body.
    public var body: Data

    /// Creates a response.
    ///
    /// - Parameters:
    ///   - status: The status code.
    ///   - headers: The header fields.
    ///   - body: The body.
    public init(status: Int, headers: [String: String] = [:], body: Data = Data()) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// A plain-text response (`text/plain; charset=utf-8`).
    ///
    /// - Parameters:
    ///   - status: The status code.
    ///   - text: The body; a line feed is added when it does not end with one.
    /// - Returns: The response.
    public static func text(_ status: Int, _ text: String) -> HTTPResponse {
        HTTPResponse(
            status: status, headers: ["Content-Type": "text/plain; charset=utf-8"],
            body: Data((text.hasSuffix("\n") ? text : text + "\n").utf8))
    }

    /// A JSON response (`application/json`) of bytes already encoded.
    ///
    /// - Parameters:
    ///   - status: The status code.
    ///   - json: The encoded JSON document.
    /// - Returns: The response.
    public static func json(_ status: Int, _ json: Data) -> HTTPResponse {
        HTTPResponse(status: status, headers: ["Content-Type": "application/json"], body: json)
    }
}

/// An error a handler throws to answer with a given response (a 404, a 409, …) instead of a 500.
public struct HTTPResponseError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The response to send.
    public let response: HTTPResponse

    /// Creates the error.
    ///
    /// - Parameter response: The response to send.
    public init(_ response: HTTPResponse) { self.response = response }

    /// The status and body, for logs.
    public var description: String {
        "HTTP \(response.status): " + String(decoding: response.body.prefix(200), as: UTF8.self)
    }
}

/// Receives a request body part by part, as it arrives: for uploads larger than a server should hold in memory.
///
/// The server calls one sink from one thread at a time, in order: `write(_:)` for each part, then either
/// `finish()` once the whole body arrived, or `cancel()` when it will not (the body is too large, the client went
/// away or timed out, the server is stopping).
public protocol HTTPRequestBodySink: AnyObject {
    /// Takes the next part of the body. Throwing ends the upload: the rest of the body is discarded and the
    /// response is the thrown `HTTPResponseError`'s (a 500 for any other error); `cancel()` follows.
    ///
    /// - Parameter bytes: The part; valid only during the call.
    func write(_ bytes: UnsafeRawBufferPointer) throws
    /// The whole body arrived: returns the response (throwing answers as `write(_:)` does, without `cancel()`).
    func finish() throws -> HTTPResponse
    /// The body will not complete: undo what `write(_:)` kept (a partial file, a transaction).
    func cancel()
}

/// What a streaming route does with a request once its header fields arrived.
public enum HTTPBodyIntake {
    /// Answer at once; a body the client sends is discarded (and the connection closed after the response).
    case respond(HTTPResponse)
    /// Give the body to this sink.
    case receive(any HTTPRequestBodySink)
}
