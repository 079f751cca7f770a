import Foundation
import SleepAnalysis
import Synchronization

/// The night service: the HTTP front door of the fleet for apps. Apps create a session, upload the night in
/// chunks while the user sleeps, finish it (the night is queued for the `NightWorker`s) and read the result, the
/// HTML report and the user's history; `DELETE /v1/users/{userId}` erases everything of a user.
///
/// Requests carry `Authorization: Bearer <licence key>`: keys signed by a trusted issuer, each key's subject a
/// tenant that sees only its own users. Chunks are kept in the configured directory, one file each, never a whole
/// night in memory. `sleepanalysis serve` runs one; a service may embed its own:
///
/// ```swift
/// let address = FleetDatabaseAddress.resolve(nil)
/// try await NightService.migrate(address: address)      // once, with a role that may create tables
/// let service = try NightService(
///     configuration: NightServiceConfiguration(
///         http: HTTPServerConfiguration(host: "0.0.0.0", port: 8080),
///         chunkDirectory: URL(fileURLWithPath: "/srv/sleep/chunks"), trustedIssuerKeys: [issuerPublicKey]),
///     address: address)
/// // … workers (`sleepanalysis worker`) analyse the finished nights …
/// service.stop()
/// ```
///
/// The paths, bodies and status codes are in `Schemas/night-service.openapi.json`.
public final class NightService: Sendable {
    /// The configuration it runs with.
    public let configuration: NightServiceConfiguration
    private let core: NightServiceCore
    private let server: HTTPServer

    /// The port the service listens on (the one the system chose when the configuration asked for 0).
    public var port: UInt16 { server.port }

    /// Starts the service.
    ///
    /// - Parameters:
    ///   - configuration: Address, chunk directory, trusted issuers and limits.
    ///   - address: The fleet's database, where the night queue and this service's tables are
    ///     (`NightService.migrate(address:)` must have created them).
    /// - Throws: `FleetDatabaseError` when the database cannot be reached or its tables are missing or too new,
    ///   `SleepCycleSdkError.invalidConfiguration` for a bad trusted key or chunk directory, `HTTPServerError` when
    ///   the address cannot be listened on.
    public init(configuration: NightServiceConfiguration, address: FleetDatabaseAddress) throws {
        let core = try NightServiceCore(configuration: configuration, address: address)
        try core.checkSchema()
        self.configuration = configuration
        self.core = core
        server = try HTTPServer(configuration: configuration.http, router: core.router())
    }

    /// Stops the service: no new connection, requests in progress finish (within the HTTP configuration's grace
    /// period), partial uploads are discarded. Calling it again does nothing.
    public func stop() {
        server.stop()
    }

    /// The service's routes over a configuration, without a server or a database connection (none is made until
    /// a handler runs): for the fuzz harness of the router.
    ///
    /// - Throws: As `init(configuration:address:)` for the trusted keys and chunk directory.
    package static func router(
        configuration: NightServiceConfiguration, address: FleetDatabaseAddress
    ) throws
        -> HTTPRouter
    {
        try NightServiceCore(configuration: configuration, address: address).router()
    }

    /// Creates or upgrades the service's tables (the night queue's are `NightQueue`'s; `sleepanalysis queue migrate`
    /// runs both): the service's only DDL, for the database owner. Safe while others do the same.
    ///
    /// - Parameter address: The fleet's database.
    /// - Returns: The service's schema with the version it had and the version it has now.
    /// - Throws: `FleetDatabaseError` (a role without `CREATE` gets SQLSTATE `42501`).
    @discardableResult
    public static func migrate(address: FleetDatabaseAddress) async throws -> FleetSchemaMigration {
        let database = PostgresDatabase(address: address)
        let migrator = NightServiceSchema.migrator
        do {
            let before = try await migrator.migrate(database)
            await database.close()
            return FleetSchemaMigration(
                schema: migrator.schemaName, fromVersion: before, toVersion: migrator.latestVersion)
        } catch {
            await database.close()
            throw error
        }
    }
}

/// What the routes share: configuration, database connections, the licence verifier and the rate limiter.
final class NightServiceCore: Sendable {
    let configuration: NightServiceConfiguration
    private let databases: [PostgresDatabase]
    private let nextDatabase = Atomic<Int>(0)
    let verifier: LicenseVerifier
    let limiter: NightServiceRateLimiter
    let logger: PackageLogger

    init(configuration: NightServiceConfiguration, address: FleetDatabaseAddress) throws {
        self.configuration = configuration
        databases = (0..<max(1, configuration.databaseConnections)).map { _ in
            PostgresDatabase(address: address, policy: FleetDatabaseReconnectPolicy(attempts: 2))
        }
        verifier = try LicenseVerifier(trustedIssuerKeys: configuration.trustedIssuerKeys)
        logger = PackageLogger(threshold: configuration.logLevel, destination: configuration.logger).with(
            "component", "night-service")
        limiter = NightServiceRateLimiter(
            rate: configuration.requestsPerSecondPerTenant, burst: configuration.requestBurstPerTenant)
        do {
            try FileManager.default.createDirectory(at: configuration.chunkDirectory, withIntermediateDirectories: true)
        } catch {
            throw SleepCycleSdkError.invalidConfiguration(
                "the chunk directory \(configuration.chunkDirectory.path) cannot be created: \(error.localizedDescription)"
            )
        }
    }

    /// One of the connections, in turn.
    var database: PostgresDatabase {
        databases[nextDatabase.wrappingAdd(1, ordering: .relaxed).oldValue % databases.count]
    }

    /// Runs `body` on a connection, blocking the calling (connection) thread.
    @discardableResult
    func run<T>(_ body: (PostgresConnection) throws -> T) throws -> T {
        try database.runBlocking(body)
    }

    /// Throws unless the service's and the queue's tables are at the versions this library writes.
    func checkSchema() throws {
        let expected = [
            NightServiceSchema.name: NightServiceSchema.migrator.latestVersion,
            NightQueueSchema.name: NightQueueSchema.migrator.latestVersion,
            PostgresSessionStoreSchema.name: PostgresSessionStoreSchema.migrator.latestVersion,
        ]
        let found = try run { connection -> [String: Int] in
            let exists = try connection.execute("SELECT to_regclass('sleepanalysis_schema_versions') IS NOT NULL")
            guard try exists.rows.first?.text(0) == "t" else { return [:] }
            var versions: [String: Int] = [:]
            for row in try connection.execute("SELECT name, version FROM sleepanalysis_schema_versions").rows {
                versions[try row.text(0)] = Int(try row.int64(1))
            }
            return versions
        }
        for (name, version) in expected.sorted(by: { $0.key < $1.key }) where found[name] != version {
            throw FleetDatabaseError(
                kind: .unexpectedResult,
                message: "the '\(name)' tables are at version \(found[name].map(String.init) ?? "none"), the service "
                    + "needs \(version): migrate the database first (NightService.migrate, NightQueue)")
        }
    }

    /// The directory of a session's chunks of one kind.
    func chunkDirectory(session: UUID, kind: NightChunkKind) -> URL {
        sessionDirectory(session).appendingPathComponent(kind.rawValue, isDirectory: true)
    }

    /// The directory of a session's chunks.
    func sessionDirectory(_ session: UUID) -> URL {
        configuration.chunkDirectory.appendingPathComponent(session.uuidString.lowercased(), isDirectory: true)
    }

    /// The queue's subject of a tenant's user: both parts percent-encoded, so that no two pairs share one.
    static func subject(tenant: String, user: String) -> String {
        let allowed = CharacterSet.alphanumerics.subtracting(CharacterSet(charactersIn: "%"))
        let encode = { (text: String) in text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text }
        return "night-service/\(encode(tenant))/\(encode(user))"
    }
}

/// A token bucket per tenant: `rate` requests a second on average, `burst` at once.
final class NightServiceRateLimiter: Sendable {
    private let rate: Double
    private let burst: Double
    private let buckets = Mutex<[String: (tokens: Double, at: Date)]>([:])

    init(rate: Double, burst: Int) {
        self.rate = max(0.001, rate)
        self.burst = Double(max(1, burst))
    }

    /// Takes a token of `tenant`'s bucket; returns nil when it had one, or the seconds until it will.
    func take(_ tenant: String, now: Date = Date()) -> Double? {
        buckets.withLock { buckets in
            var bucket = buckets[tenant] ?? (burst, now)
            bucket.tokens = min(burst, bucket.tokens + now.timeIntervalSince(bucket.at) * rate)
            bucket.at = now
            defer { buckets[tenant] = bucket }
            guard bucket.tokens >= 1 else { return (1 - bucket.tokens) / rate }
            bucket.tokens -= 1
            return nil
        }
    }
}
