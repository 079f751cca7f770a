import Foundation
import XCTest

@testable import SleepAnalysis
@testable import SleepAnalysisFleet

/// A fresh, empty database for one test, created in the cluster that `$SLEEPANALYSIS_TEST_DATABASE_URL` points
/// at (`Tools/postgres/with-test-cluster.sh` starts one) and dropped by `drop()`. Tests using it are skipped when
/// the variable is unset.
struct PostgresTestDatabase {
    /// The variable holding the cluster's URL (its database is used only to create and drop test databases).
    static let variable = "SLEEPANALYSIS_TEST_DATABASE_URL"

    /// The test database's address.
    let address: FleetDatabaseAddress
    /// Its name.
    let name: String
    private let administration: PostgresDatabase

    /// Creates a database named `sa_test_<random>`, with the queue's and the session store's tables unless
    /// `migrated` is false (`NightQueue.migrate`, as `queue migrate` does: opening a queue no longer creates them).
    ///
    /// - Throws: `XCTSkip` when `$SLEEPANALYSIS_TEST_DATABASE_URL` is unset; `FleetDatabaseError` when the cluster
    ///   cannot be reached.
    static func create(migrated: Bool = true) async throws -> PostgresTestDatabase {
        guard let url = ProcessInfo.processInfo.environment[variable], !url.isEmpty else {
            throw XCTSkip(
                "needs PostgreSQL: set \(variable) (Tools/postgres/with-test-cluster.sh and Tools/run-tests.sh do)")
        }
        guard var components = URLComponents(string: url) else {
            throw FleetDatabaseError(kind: .connection, message: "\(variable) is not a postgresql:// URL")
        }
        let name = "sa_test_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        components.path = "/" + name
        let administration = PostgresDatabase(address: FleetDatabaseAddress(url))
        try await administration.run { connection in
            try connection.execute("CREATE DATABASE \(try connection.quotedIdentifier(name))")
        }
        let address = FleetDatabaseAddress(components.string ?? url)
        if migrated { try await NightQueue.migrate(address: address) }
        return PostgresTestDatabase(address: address, name: name, administration: administration)
    }

    /// Drops the database, disconnecting anyone still on it.
    func drop() async {
        let name = name
        _ = try? await administration.run { connection in
            try connection.execute("DROP DATABASE IF EXISTS \(try connection.quotedIdentifier(name)) WITH (FORCE)")
        }
        await administration.close()
    }

    /// A connection pool of one to the test database.
    func database(policy: FleetDatabaseReconnectPolicy = FleetDatabaseReconnectPolicy()) -> PostgresDatabase {
        PostgresDatabase(address: address, policy: policy)
    }
}
