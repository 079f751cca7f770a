import Foundation

/// Where an `HTTPServer` listens and how it protects itself from slow and greedy clients.
///
/// Each connection is served by its own thread (libmicrohttpd's thread-per-connection mode): a client that sends
/// its request one byte a second holds one thread, never the others. `connectionTimeout` closes a connection that
/// sends nothing for that long; `maximumConnections` and `maximumConnectionsPerAddress` bound the threads.
public struct HTTPServerConfiguration: Sendable, Hashable {
    /// The address to listen on: an IPv4 or IPv6 address, or a host name (its first address). `127.0.0.1`
    /// unless set; `0.0.0.0` or `::` listen on every interface.
    public var host: String
    /// The TCP port; 0 lets the system choose one (`HTTPServer.port` tells which).
    public var port: UInt16
    /// Seconds a connection may stay silent (no byte received or sent) before it is closed.
    public var connectionTimeout: Int
    /// Connections served at once; more wait in the listen backlog.
    public var maximumConnections: Int
    /// Connections served at once from one client address; 0 means no limit beyond `maximumConnections`.
    public var maximumConnectionsPerAddress: Int
    /// Bytes of memory per connection for the request line and header fields (a request whose header is larger
    /// is refused by libmicrohttpd).
    public var connectionMemoryBytes: Int
    /// Seconds `HTTPServer.stop()` waits for requests in progress before it closes their connections.
    public var shutdownGracePeriod: Double

    /// Creates a configuration.
    ///
    /// - Parameters:
    ///   - host: The address to listen on.
    ///   - port: The port (0: any free one).
    ///   - connectionTimeout: Seconds of silence before a connection is closed.
    ///   - maximumConnections: Connections served at once.
    ///   - maximumConnectionsPerAddress: Connections at once from one address (0: no limit of its own).
    ///   - connectionMemoryBytes: Memory per connection for the request header.
    ///   - shutdownGracePeriod: Seconds a stop waits for requests in progress.
    public init(
        host: String = "127.0.0.1", port: UInt16 = 0, connectionTimeout: Int = 30, maximumConnections: Int = 256,
        maximumConnectionsPerAddress: Int = 0, connectionMemoryBytes: Int = 64 * 1024, shutdownGracePeriod: Double = 5
    ) {
        self.host = host
        self.port = port
        self.connectionTimeout = connectionTimeout
        self.maximumConnections = maximumConnections
        self.maximumConnectionsPerAddress = maximumConnectionsPerAddress
        self.connectionMemoryBytes = connectionMemoryBytes
        self.shutdownGracePeriod = shutdownGracePeriod
    }
}

/// Why an `HTTPServer` could not start.
public enum HTTPServerError: Error, Sendable, Hashable, CustomStringConvertible, LocalizedError {
    /// The configuration is unusable (a negative time-out, no connections allowed).
    case invalidConfiguration(String)
    /// The host is no address and no name that resolves.
    case invalidAddress(String)
    /// The address could not be bound or listened on (in use, not local, no permission).
    case cannotListen(address: String, reason: String)
    /// libmicrohttpd refused to start.
    case cannotStart(String)

    /// The message.
    public var description: String {
        switch self {
        case .invalidConfiguration(let why): "HTTP server: invalid configuration: \(why)"
        case .invalidAddress(let host): "HTTP server: '\(host)' is no address to listen on"
        case .cannotListen(let address, let reason): "HTTP server: cannot listen on \(address): \(reason)"
        case .cannotStart(let why): "HTTP server: cannot start: \(why)"
        }
    }

    /// The message a person needs (`localizedDescription` gives the same).
    public var errorDescription: String? { description }
}
