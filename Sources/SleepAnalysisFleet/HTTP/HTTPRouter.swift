import Foundation

/// One route: a method, a path pattern and what answers it.
///
/// A pattern is a path whose segments are literal (`sessions`) or a named parameter (`{id}`, matching any one
/// non-empty segment): `/v1/sessions/{id}/audio/{sequence}`.
public struct HTTPRoute: Sendable {
    /// What answers a matched request.
    enum Handling: Sendable {
        case collect(@Sendable (HTTPRequest) throws -> HTTPResponse)
        case stream(@Sendable (HTTPRequest) throws -> HTTPBodyIntake)
    }

    /// The method.
    public let method: HTTPMethod
    /// The path pattern.
    public let pattern: String
    /// The largest body accepted, in bytes: a longer one is answered 413.
    public let maximumBodyBytes: Int
    let segments: [Segment]
    let handling: Handling

    enum Segment: Sendable, Hashable {
        case literal(String)
        case parameter(String)
    }

    private init(method: HTTPMethod, pattern: String, maximumBodyBytes: Int, handling: Handling) {
        self.method = method
        self.pattern = pattern
        self.maximumBodyBytes = max(0, maximumBodyBytes)
        self.segments = HTTPRequestTarget.segments(of: pattern).map { segment in
            segment.hasPrefix("{") && segment.hasSuffix("}") && segment.count > 2
                ? .parameter(String(segment.dropFirst().dropLast())) : .literal(segment)
        }
        self.handling = handling
    }

    /// A route whose handler gets the whole body in `HTTPRequest.body` (for small bodies: JSON requests).
    ///
    /// - Parameters:
    ///   - method: The method.
    ///   - pattern: The path pattern.
    ///   - maximumBodyBytes: The largest body accepted (413 above it); 64 KiB unless given.
    ///   - handler: Makes the response; throwing `HTTPResponseError` answers with its response, anything else
    ///     with the router's error response.
    /// - Returns: The route.
    public static func respond(
        _ method: HTTPMethod, _ pattern: String, maximumBodyBytes: Int = 64 * 1024,
        _ handler: @escaping @Sendable (HTTPRequest) throws -> HTTPResponse
    ) -> HTTPRoute {
        HTTPRoute(method: method, pattern: pattern, maximumBodyBytes: maximumBodyBytes, handling: .collect(handler))
    }

    /// A route whose body is streamed to a sink as it arrives, never held whole in memory.
    ///
    /// - Parameters:
    ///   - method: The method.
    ///   - pattern: The path pattern.
    ///   - maximumBodyBytes: The largest body accepted: a larger `Content-Length` is answered 413 before the body
    ///     is read; a chunked body that grows past it is cancelled and answered 413.
    ///   - intake: Called once the header fields arrived (`HTTPRequest.body` is empty): answers at once or gives
    ///     the sink for the body.
    /// - Returns: The route.
    public static func stream(
        _ method: HTTPMethod, _ pattern: String, maximumBodyBytes: Int,
        _ intake: @escaping @Sendable (HTTPRequest) throws -> HTTPBodyIntake
    ) -> HTTPRoute {
        HTTPRoute(method: method, pattern: pattern, maximumBodyBytes: maximumBodyBytes, handling: .stream(intake))
    }

    /// The parameters when `segments` (decoded) match this route's pattern.
    func parameters(matching pathSegments: [String]) -> [String: String]? {
        guard pathSegments.count == segments.count else { return nil }
        var parameters: [String: String] = [:]
        for (segment, value) in zip(segments, pathSegments) {
            switch segment {
            case .literal(let literal): if literal != value { return nil }
            case .parameter(let name):
                if value.isEmpty { return nil }
                parameters[name] = value
            }
        }
        return parameters
    }
}

/// What the router found for a method and path.
public enum HTTPRouteMatch: Sendable {
    /// A route, with its parameters.
    case found(HTTPRoute, parameters: [String: String])
    /// The path exists for other methods only (405, with `Allow`).
    case methodNotAllowed(allowed: [HTTPMethod])
    /// No route has this path (404).
    case notFound
}

/// Finds the route of a request: the first route whose method and pattern match. `HEAD` uses a `GET` route.
public struct HTTPRouter: Sendable {
    /// The routes, in the order they are tried.
    public let routes: [HTTPRoute]
    /// The response to an error a handler throws that is no `HTTPResponseError` (a plain 500 unless given).
    public let errorResponse: @Sendable (any Error, HTTPRequest) -> HTTPResponse

    /// Creates a router.
    ///
    /// - Parameters:
    ///   - routes: The routes, tried in order.
    ///   - errorResponse: The response to an unexpected error (log it here); a plain-text 500 unless given.
    public init(
        _ routes: [HTTPRoute],
        errorResponse: @escaping @Sendable (any Error, HTTPRequest) -> HTTPResponse = { _, _ in
            .text(500, "Internal server error")
        }
    ) {
        self.routes = routes
        self.errorResponse = errorResponse
    }

    /// The route for a method and a decoded path's segments.
    ///
    /// - Parameters:
    ///   - method: The request's method.
    ///   - pathSegments: The decoded path's segments (`HTTPRequestTarget.pathSegments`).
    /// - Returns: The match.
    public func match(_ method: HTTPMethod, pathSegments: [String]) -> HTTPRouteMatch {
        var allowed: [HTTPMethod] = []
        for route in routes {
            guard let parameters = route.parameters(matching: pathSegments) else { continue }
            if route.method == method || (method == .head && route.method == .get) {
                return .found(route, parameters: parameters)
            }
            if !allowed.contains(route.method) { allowed.append(route.method) }
        }
        return allowed.isEmpty ? .notFound : .methodNotAllowed(allowed: allowed)
    }
}

/// A request target (`/v1/users/a%20b/nights?from=…`) split into decoded path segments and query fields.
public struct HTTPRequestTarget: Sendable, Hashable {
    /// The path's segments, each percent-decoded (a `%2F` stays inside its segment).
    public let pathSegments: [String]
    /// The query's fields, percent-decoded (`+` is a space); the last of a repeated name wins.
    public let query: [String: String]

    /// The decoded path (segments joined with `/`).
    public var path: String { "/" + pathSegments.joined(separator: "/") }

    /// Parses a request target in origin form.
    ///
    /// - Parameter raw: The target as the client sent it.
    /// - Returns: Nil when it does not start with `/`, is longer than 8 KiB or holds a malformed percent escape
    ///   (the server answers 400).
    public init?(_ raw: String) {
        guard raw.hasPrefix("/"), raw.utf8.count <= 8192 else { return nil }
        let parts = raw.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        var segments: [String] = []
        for segment in HTTPRequestTarget.segments(of: String(parts[0])) {
            guard let decoded = segment.removingPercentEncoding else { return nil }
            segments.append(decoded)
        }
        var query: [String: String] = [:]
        if parts.count == 2 {
            for field in parts[1].split(separator: "&") where !field.isEmpty {
                let pair = field.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                let decode = { (text: Substring) in
                    text.replacingOccurrences(of: "+", with: " ").removingPercentEncoding
                }
                guard let name = decode(pair[0]), let value = pair.count == 2 ? decode(pair[1]) : "" else { return nil }
                query[name] = value
            }
        }
        pathSegments = segments
        self.query = query
    }

    /// The segments of a path: split at `/`, without the empty one before the leading `/` (`/` alone has none).
    static func segments(of path: String) -> [String] {
        var segments = path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        if segments.first == "" { segments.removeFirst() }
        if segments == [""] { segments = [] }
        return segments
    }
}
