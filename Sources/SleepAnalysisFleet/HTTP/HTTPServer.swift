import CMicroHTTPD
import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// An HTTP/1.1 server on libmicrohttpd: routes requests to handlers, streams request bodies to sinks with a size
/// limit, and serves every connection on its own thread with an idle time-out, so that a slow client holds up no
/// other.
///
/// The server listens from `init` until `stop()` (or until it is released). Handlers run on the connection's
/// thread and may block it (a database query, a file write).
///
/// ```swift
/// let router = HTTPRouter([
///     .respond(.get, "/healthz") { _ in .text(200, "ok") }
/// ])
/// let server = try HTTPServer(configuration: HTTPServerConfiguration(port: 0), router: router)
/// print("listening on port \(server.port)")
/// server.stop()
/// ```
public final class HTTPServer: Sendable {
    /// The port the server listens on (the one the system chose when the configuration asked for 0).
    public let port: UInt16
    /// The configuration it was started with.
    public let configuration: HTTPServerConfiguration
    private let core: HTTPServerCore
    private let daemon: Mutex<HTTPDaemonHandle?>

    /// Starts a server: binds the address, then serves until `stop()`.
    ///
    /// - Parameters:
    ///   - configuration: The address, port, time-outs and connection limits.
    ///   - router: The routes.
    /// - Throws: `HTTPServerError` when the configuration is invalid, the address cannot be listened on or
    ///   libmicrohttpd does not start.
    public init(configuration: HTTPServerConfiguration, router: HTTPRouter) throws {
        guard configuration.connectionTimeout > 0, configuration.maximumConnections > 0,
            configuration.maximumConnectionsPerAddress >= 0, configuration.connectionMemoryBytes >= 4096,
            configuration.shutdownGracePeriod >= 0
        else {
            throw HTTPServerError.invalidConfiguration(
                "time-out and connection limit must be positive, memory per connection at least 4096 bytes")
        }
        let listener = try HTTPListenSocket(host: configuration.host, port: configuration.port)
        let core = HTTPServerCore(router: router)
        var flags =
            MHD_USE_THREAD_PER_CONNECTION.rawValue | MHD_USE_INTERNAL_POLLING_THREAD.rawValue
            | MHD_USE_ITC.rawValue | MHD_USE_AUTO.rawValue
        if listener.isIPv6 { flags |= MHD_USE_IPv6.rawValue }
        let coreAddress = Unmanaged.passUnretained(core).toOpaque()
        // Pointers travel through the C variadic list as pointer-sized integers.
        let coreBits = Int(bitPattern: coreAddress)
        let options: [any CVarArg] = [
            MHD_OPTION.LISTEN_SOCKET.rawValue, listener.descriptor,
            MHD_OPTION.CONNECTION_TIMEOUT.rawValue, UInt32(clamping: configuration.connectionTimeout),
            MHD_OPTION.CONNECTION_LIMIT.rawValue, UInt32(clamping: configuration.maximumConnections),
            MHD_OPTION.PER_IP_CONNECTION_LIMIT.rawValue, UInt32(clamping: configuration.maximumConnectionsPerAddress),
            MHD_OPTION.CONNECTION_MEMORY_LIMIT.rawValue, configuration.connectionMemoryBytes,
            MHD_OPTION.URI_LOG_CALLBACK.rawValue, unsafeBitCast(httpRequestStarted, to: Int.self),
            coreBits,
            MHD_OPTION.NOTIFY_COMPLETED.rawValue, unsafeBitCast(httpRequestCompleted, to: Int.self),
            coreBits,
            MHD_OPTION.END.rawValue,
        ]
        let started = withVaList(options) { arguments in
            MHD_start_daemon_va(flags, 0, nil, nil, httpAccessHandler, coreAddress, arguments)
        }
        guard let started else {
            close(listener.descriptor)
            throw HTTPServerError.cannotStart("libmicrohttpd refused the options (thread-per-connection on poll)")
        }
        self.port = listener.port
        self.configuration = configuration
        self.core = core
        self.daemon = Mutex(HTTPDaemonHandle(daemon: started))
    }

    deinit { stop() }

    /// Requests received and not yet answered (or given up), over all connections.
    public var requestsInProgress: Int { core.inProgress.withLock { $0 } }

    /// Stops the server: accepts no new connection, waits up to the configuration's grace period for the
    /// requests in progress, then closes every connection and joins their threads. Calling it again does nothing.
    public func stop() {
        guard
            let handle = daemon.withLock({ current -> HTTPDaemonHandle? in
                defer { current = nil }
                return current
            })
        else { return }
        let listenSocket = MHD_quiesce_daemon(handle.daemon)
        let deadline = Date().addingTimeInterval(configuration.shutdownGracePeriod)
        while requestsInProgress > 0, Date() < deadline { usleep(10_000) }
        MHD_stop_daemon(handle.daemon)
        if listenSocket >= 0 { close(listenSocket) }
    }
}

/// The daemon pointer, owned by one server.
private struct HTTPDaemonHandle: @unchecked Sendable {
    let daemon: OpaquePointer
}

/// A bound and listening TCP socket, handed to libmicrohttpd (which closes it when it stops).
private struct HTTPListenSocket {
    let descriptor: Int32
    let port: UInt16
    let isIPv6: Bool

    init(host: String, port: UInt16) throws {
        var hints = addrinfo()
        hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var found: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, String(port), &hints, &found) == 0, let info = found?.pointee,
            let address = info.ai_addr
        else { throw HTTPServerError.invalidAddress(host) }
        defer { freeaddrinfo(found) }
        let shown = info.ai_family == AF_INET6 ? "[\(host)]:\(port)" : "\(host):\(port)"
        let descriptor = socket(info.ai_family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else {
            throw HTTPServerError.cannotListen(address: shown, reason: String(cString: strerror(errno)))
        }
        var one: Int32 = 1
        setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        guard bind(descriptor, address, info.ai_addrlen) == 0, listen(descriptor, 128) == 0 else {
            let reason = String(cString: strerror(errno))
            close(descriptor)
            throw HTTPServerError.cannotListen(address: shown, reason: reason)
        }
        var bound = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let named = withUnsafeMutablePointer(to: &bound) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        guard named == 0 else {
            let reason = String(cString: strerror(errno))
            close(descriptor)
            throw HTTPServerError.cannotListen(address: shown, reason: reason)
        }
        let networkPort: UInt16 =
            switch Int32(bound.ss_family) {
            case AF_INET6:
                withUnsafePointer(to: &bound) {
                    $0.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { $0.pointee.sin6_port }
                }
            default:
                withUnsafePointer(to: &bound) {
                    $0.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { $0.pointee.sin_port }
                }
            }
        self.descriptor = descriptor
        self.port = UInt16(bigEndian: networkPort)
        self.isIPv6 = info.ai_family == AF_INET6
    }
}
