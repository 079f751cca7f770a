import Foundation
import SleepAnalysis

/// How a `NightService` listens, whom it trusts, where it keeps chunks and what it allows each tenant.
public struct NightServiceConfiguration: Sendable {
    /// The HTTP server's address, port, time-outs and connection limits.
    public var http: HTTPServerConfiguration
    /// The directory the chunks are kept in (one directory per session): it must be readable by the workers at
    /// the same path (a shared file system when they run elsewhere).
    public var chunkDirectory: URL
    /// The Ed25519 public keys (base64) whose licence keys are accepted as Bearer tokens, beside the built-in
    /// issuers and `SLEEPANALYSIS_TRUSTED_KEYS`. Each key's subject is a tenant.
    public var trustedIssuerKeys: [String]
    /// The largest chunk accepted, in bytes (413 above it).
    public var maximumChunkBytes: Int
    /// The most chunks of one kind a session may hold: sequence numbers run from 0 to this minus one (409 past
    /// it).
    public var maximumChunksPerSession: Int
    /// Requests a tenant may make per second, on average (429 past it).
    public var requestsPerSecondPerTenant: Double
    /// Requests a tenant may make at once above the average (the size of its token bucket).
    public var requestBurstPerTenant: Int
    /// How many times a worker may take a finished session's night before it is given up.
    public var maximumAttempts: Int
    /// PostgreSQL connections the service uses at once.
    public var databaseConnections: Int
    /// The lowest level logged: `error` for failures answered 500 or 503, `info` for sessions finished and users
    /// erased.
    public var logLevel: LogLevel
    /// Where log messages go; nil for standard error.
    public var logger: (any SleepAnalysisLogHandler)?
    /// Routes served beside the service's own (for example the fleet's metrics), tried after them; they do
    /// their own authentication, if any.
    public var additionalRoutes: [HTTPRoute] = []

    /// Creates a configuration.
    ///
    /// - Parameters:
    ///   - http: The HTTP server's configuration (127.0.0.1, any free port, unless given).
    ///   - chunkDirectory: Where chunks are kept.
    ///   - trustedIssuerKeys: Extra trusted issuer public keys (base64).
    ///   - maximumChunkBytes: The largest chunk (64 MiB unless given).
    ///   - maximumChunksPerSession: The most chunks of a kind per session (10,000 unless given).
    ///   - requestsPerSecondPerTenant: The average request rate per tenant (200 unless given).
    ///   - requestBurstPerTenant: The burst above it (400 unless given).
    ///   - maximumAttempts: The worker attempts per night (5 unless given).
    ///   - databaseConnections: PostgreSQL connections (4 unless given).
    ///   - logLevel: The lowest level logged.
    ///   - logger: Where log messages go; nil for standard error.
    public init(
        http: HTTPServerConfiguration = HTTPServerConfiguration(), chunkDirectory: URL,
        trustedIssuerKeys: [String] = [], maximumChunkBytes: Int = 64 << 20, maximumChunksPerSession: Int = 10_000,
        requestsPerSecondPerTenant: Double = 200, requestBurstPerTenant: Int = 400, maximumAttempts: Int = 5,
        databaseConnections: Int = 4, logLevel: LogLevel = .info, logger: (any SleepAnalysisLogHandler)? = nil
    ) {
        self.http = http
        self.chunkDirectory = chunkDirectory
        self.trustedIssuerKeys = trustedIssuerKeys
        self.maximumChunkBytes = maximumChunkBytes
        self.maximumChunksPerSession = maximumChunksPerSession
        self.requestsPerSecondPerTenant = requestsPerSecondPerTenant
        self.requestBurstPerTenant = requestBurstPerTenant
        self.maximumAttempts = maximumAttempts
        self.databaseConnections = databaseConnections
        self.logLevel = logLevel
        self.logger = logger
    }
}
