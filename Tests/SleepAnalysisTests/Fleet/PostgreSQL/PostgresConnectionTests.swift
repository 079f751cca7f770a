import Foundation
import XCTest

@testable import SleepAnalysis
@testable import SleepAnalysisFleet

/// The libpq layer against a real server: parameters, SQLSTATEs, transactions, notifications, reconnection,
/// and no password in any message.
final class PostgresConnectionTests: PostgresDatabaseTestCase {
    func test_parameters_roundTrip_textNullAndQuotes() async throws {
        let database = testDatabase.database()
        let awkward = "O'Brien; DROP TABLE x; -- \"night\" ü 🌙"
        let row = try await database.run { connection in
            try connection.execute("SELECT $1::text, $2::text, $3::bigint + 1", [awkward, nil, "41"]).rows.first
        }
        XCTAssertEqual(row?[0], awkward)
        XCTAssertNil(row?[1])
        XCTAssertEqual(try row?.int64(2), 42)
    }

    func test_refusedStatement_carriesItsSQLState_andRollsBackTheTransaction() async throws {
        let database = testDatabase.database()
        try await database.run { try $0.execute("CREATE TABLE t (id integer PRIMARY KEY)") }
        do {
            try await database.transaction { connection in
                try connection.execute("INSERT INTO t VALUES (1)")
                try connection.execute("INSERT INTO t VALUES (1)")
            }
            XCTFail("a duplicate key was accepted")
        } catch let error as FleetDatabaseError {
            XCTAssertEqual(error.kind, .statement)
            XCTAssertEqual(error.sqlState, "23505")
            XCTAssertFalse(error.isTransient)
        }
        let count = try await database.run { try $0.execute("SELECT count(*) FROM t").rows.first?.int64(0) }
        XCTAssertEqual(count, 0, "the first insert was rolled back with the transaction")
    }

    func test_notify_reachesAListener_afterCommit() async throws {
        let listener = PostgresListener(address: testDatabase.address, channels: ["night jobs"])
        let nothingYet = try await listener.wait(upTo: 0)
        XCTAssertEqual(nothingYet, [], "connects and listens")
        let database = testDatabase.database()
        try await database.transaction { try $0.notify("night jobs", payload: "17") }
        var received: [PostgresNotification] = []
        for _ in 0..<20 where received.isEmpty { received = try await listener.wait(upTo: 0.5) }
        XCTAssertEqual(received, [PostgresNotification(channel: "night jobs", payload: "17")])
        await listener.close()
    }

    func test_aTerminatedConnection_failsTransiently_andTheNextCallReconnects() async throws {
        let database = testDatabase.database()
        let pid = try await database.run { try $0.execute("SELECT pg_backend_pid()").rows.first?.int64(0) }
        let killer = testDatabase.database()
        try await killer.run { try $0.execute("SELECT pg_terminate_backend($1::integer, 5000)", [String(pid ?? 0)]) }
        do {
            try await database.run { try $0.execute("SELECT 1") }
            XCTFail("the terminated connection still answered")
        } catch let error as FleetDatabaseError {
            XCTAssertTrue(error.isTransient, "\(error)")
        }
        let newPid = try await database.run { try $0.execute("SELECT pg_backend_pid()").rows.first?.int64(0) }
        XCTAssertNotNil(newPid)
        XCTAssertNotEqual(newPid, pid)
    }

    func test_aRefusedLogin_isAnAuthenticationError_triedOnce_withoutThePassword() async throws {
        guard var components = URLComponents(string: testDatabase.address.connectionString) else {
            return XCTFail("the test address is not a URL")
        }
        components.password = "wrong-secret-1234"
        // Six attempts 2 s apart if it were retried: at least 10 s.
        let database = PostgresDatabase(
            address: FleetDatabaseAddress(components.string ?? ""),
            policy: FleetDatabaseReconnectPolicy(attempts: 6, initialDelay: 2, maximumDelay: 2))
        let began = Date()
        do {
            try await database.run { try $0.execute("SELECT 1") }
            XCTFail("a wrong password was accepted")
        } catch let error as FleetDatabaseError {
            XCTAssertEqual(error.kind, .authentication)
            XCTAssertFalse(error.isTransient)
            XCTAssertFalse(error.description.contains("wrong-secret-1234"), error.description)
            XCTAssertTrue(error.description.contains("***"), error.description)
        }
        XCTAssertLessThan(Date().timeIntervalSince(began), 1.9, "a refused login is not retried")
    }

    func test_anUnreachableServer_isATransientConnectionError() async throws {
        let database = PostgresDatabase(
            address: FleetDatabaseAddress("postgresql://nobody:secret@127.0.0.1:9/none?connect_timeout=2"),
            policy: FleetDatabaseReconnectPolicy(attempts: 1))
        do {
            try await database.run { try $0.execute("SELECT 1") }
            XCTFail("port 9 answered as PostgreSQL")
        } catch let error as FleetDatabaseError {
            XCTAssertEqual(error.kind, .connection)
            XCTAssertTrue(error.isTransient)
        }
    }

    func test_redaction_hidesPasswordsInURLsAndKeyValueStrings() {
        XCTAssertEqual(
            FleetDatabaseAddress.redacted("postgresql://ana:s3cr%40t@db:5432/sleep?sslmode=require"),
            "postgresql://ana:***@db:5432/sleep?sslmode=require")
        XCTAssertEqual(
            FleetDatabaseAddress.redacted("postgres://db/sleep?user=ana&password=s3cret&sslmode=require"),
            "postgres://db/sleep?user=ana&password=***&sslmode=require")
        XCTAssertEqual(
            FleetDatabaseAddress.redacted("host=db password='a b\\'c' dbname=sleep"),
            "host=db password=*** dbname=sleep")
        XCTAssertEqual(FleetDatabaseAddress.redacted("postgresql://ana@db/sleep"), "postgresql://ana@db/sleep")
        XCTAssertEqual(FleetDatabaseAddress("").description, "(libpq defaults)")
    }

    func test_resolve_prefersTheGivenAddress_thenTheEnvironment() {
        let environment = [FleetDatabaseAddress.environmentVariable: "postgresql://env/db"]
        XCTAssertEqual(
            FleetDatabaseAddress.resolve("postgresql://given/db", environment: environment).connectionString,
            "postgresql://given/db")
        XCTAssertEqual(
            FleetDatabaseAddress.resolve(nil, environment: environment).connectionString, "postgresql://env/db")
        XCTAssertEqual(FleetDatabaseAddress.resolve(nil, environment: [:]).connectionString, "")
    }
}
