import XCTest

@_spi(Internal) @testable import SleepAnalysis

final class SQLiteDatabaseTests: XCTestCase {
    func test_database_roundTrips_every_storage_class() throws {
        // Given a table with one column of each kind
        let directory = try makeTemporaryDirectory(self)
        let database = try SQLiteDatabase(url: directory.appendingPathComponent("t.sqlite"))
        try database.write { try $0.executeScript("CREATE TABLE t (i INTEGER, r REAL, s TEXT, b BLOB, n)") }
        let blob = Data([0, 1, 2, 255])
        // When values go in and come back
        try database.write {
            try $0.execute(
                "INSERT INTO t VALUES (?, ?, ?, ?, ?)",
                [.integer(Int64.min), .real(-0.125), .text("naïve 睡眠"), .blob(blob), .null])
            try $0.execute(
                "INSERT INTO t VALUES (?, ?, ?, ?, ?)", [.integer(1), .real(1), .text(""), .blob(Data()), .null])
        }
        let rows = try database.read { try $0.query("SELECT i, r, s, b, n FROM t ORDER BY rowid") }
        // Then each has its type and value
        XCTAssertEqual(rows.count, 2)
        XCTAssertEqual(try rows[0].int64(0), Int64.min)
        XCTAssertEqual(try rows[0].double(1), -0.125)
        XCTAssertEqual(try rows[0].text(2), "naïve 睡眠")
        XCTAssertEqual(try rows[0].blob(3), blob)
        XCTAssertTrue(rows[0].isNull(4))
        XCTAssertEqual(try rows[1].blob(3), Data(), "an empty blob stays a blob, not NULL")
        assertStorageFailure(try rows[0].text(0))
    }

    func test_write_rollsBack_everything_when_the_body_throws() throws {
        let directory = try makeTemporaryDirectory(self)
        let database = try SQLiteDatabase(url: directory.appendingPathComponent("t.sqlite"))
        try database.write { try $0.executeScript("CREATE TABLE t (i INTEGER NOT NULL)") }
        // When the second statement of a transaction fails
        assertStorageFailure(
            try database.write {
                try $0.execute("INSERT INTO t VALUES (1)")
                try $0.execute("INSERT INTO t VALUES (NULL)")
            })
        // Then the first is gone too, and the database still works
        let count = try database.read { try $0.query("SELECT count(*) FROM t")[0].int64(0) }
        XCTAssertEqual(count, 0)
        try database.write { try $0.execute("INSERT INTO t VALUES (2)") }
    }

    func test_open_uses_walMode() throws {
        let directory = try makeTemporaryDirectory(self)
        let database = try SQLiteDatabase(url: directory.appendingPathComponent("t.sqlite"))
        let mode = try database.read { try $0.query("PRAGMA journal_mode")[0].text(0) }
        let synchronous = try database.read { try $0.query("PRAGMA synchronous")[0].int64(0) }
        XCTAssertEqual(mode, "wal")
        XCTAssertEqual(synchronous, 1, "synchronous=NORMAL")
    }

    func test_new_database_files_are_private_to_their_owner() throws {
        let directory = try makeTemporaryDirectory(self)
        let store = try SessionStore(directory: directory)
        try store.save(SessionStoreFixtures.night(startingHoursAfter: 1))
        for suffix in ["", "-wal", "-shm"] {
            let path = directory.appendingPathComponent(SessionStore.fileName + suffix).path
            let attributes = try FileManager.default.attributesOfItem(atPath: path)
            XCTAssertEqual((attributes[.posixPermissions] as? NSNumber)?.intValue, 0o600, path)
        }
    }

    func test_badSQL_and_wrong_parameter_count_give_storageFailure() throws {
        let directory = try makeTemporaryDirectory(self)
        let database = try SQLiteDatabase(url: directory.appendingPathComponent("t.sqlite"))
        let message = assertStorageFailure(try database.read { try $0.query("SELEC nonsense") })
        XCTAssertTrue(message?.contains("syntax error") ?? false, message ?? "")
        assertStorageFailure(try database.read { try $0.query("SELECT ?", []) })
    }

    func test_open_corruptFile_gives_storageFailure() throws {
        // Given a file of garbage where a database should be
        let directory = try makeTemporaryDirectory(self)
        let url = directory.appendingPathComponent("journal.sqlite")
        try Data((0..<8192).map { UInt8(truncatingIfNeeded: $0 &* 7919) }).write(to: url)
        // Then opening it as a journal, or reading it as a store, fails cleanly
        let message = assertStorageFailure(try SessionJournal(databaseURL: url))
        XCTAssertTrue(message?.contains("not a database") ?? false, message ?? "")
        try FileManager.default.copyItem(at: url, to: directory.appendingPathComponent(SessionStore.fileName))
        let reading = assertStorageFailure(try SessionStore(readingFrom: directory))
        XCTAssertTrue(reading?.contains("not a database") ?? false, reading ?? "")
        // And opening it as a store for writing moves it aside and starts a new one
        XCTAssertNotNil(try SessionStore(directory: directory).quarantined)
    }

    func test_migrator_refuses_other_schema_and_newer_version() throws {
        let directory = try makeTemporaryDirectory(self)
        let url = directory.appendingPathComponent("x.sqlite")
        // A journal file is not a session store
        _ = try SessionJournal(databaseURL: url)
        let other = SQLiteMigrator(schemaName: "session-store", migrations: [])
        XCTAssertTrue(assertStorageFailure(try other.migrate(SQLiteDatabase(url: url)))?.contains("schema") ?? false)
        // A journal written by a newer library is left alone
        let database = try SQLiteDatabase(url: url)
        try database.write { try $0.execute("UPDATE schema_version SET version = 99") }
        XCTAssertTrue(assertStorageFailure(try SessionJournal(databaseURL: url))?.contains("newer") ?? false)
    }

    func test_migrator_applies_only_new_migrations() throws {
        let directory = try makeTemporaryDirectory(self)
        let url = directory.appendingPathComponent("m.sqlite")
        let first = SQLiteMigrator(schemaName: "m", migrations: ["CREATE TABLE a (x)"])
        try first.migrate(SQLiteDatabase(url: url))
        let second = SQLiteMigrator(schemaName: "m", migrations: ["CREATE TABLE a (x)", "CREATE TABLE b (y)"])
        let database = try SQLiteDatabase(url: url)
        try second.migrate(database)
        try second.migrate(database)
        let version = try database.read { try $0.query("SELECT version FROM schema_version")[0].int64(0) }
        XCTAssertEqual(version, 2)
    }

    func test_corruptPages_in_a_valid_journal_give_storageFailure_on_read() throws {
        // Given a journal with records, closed so that its WAL is checkpointed into the file
        let directory = try makeTemporaryDirectory(self)
        let url = directory.appendingPathComponent("journal.sqlite")
        let sessionId = UUID()
        do {
            let journal = try SessionJournal(databaseURL: url)
            let start = Date(timeIntervalSince1970: 0)
            try journal.beginSession(
                JournalSession(
                    sessionId: sessionId, channel: .primary, config: SleepAnalysisConfig(), smartAlarmConfig: nil,
                    startTime: start, timeZoneIdentifier: "UTC", enabledFeatures: [], sourceDescription: "test",
                    sourceStartTime: start))
            let entries = try (0..<200).map {
                try JournalEntry(String(repeating: "z", count: 400), kind: "k", time: start + Double($0))
            }
            try journal.appendBatch(entries, sessionId: sessionId)
        }
        // When every page after the schema pages is overwritten with garbage
        let handle = try FileHandle(forUpdating: url)
        let size = try handle.seekToEnd()
        XCTAssertGreaterThan(size, 16_384)
        try handle.seek(toOffset: 12_288)
        try handle.write(contentsOf: Data(repeating: 0xA5, count: Int(size) - 12_288))
        try handle.close()
        // Then opening or reading fails with a storage failure, not a crash
        do {
            let journal = try SessionJournal(databaseURL: url)
            assertStorageFailure(try journal.records(of: String.self, kind: "k", sessionId: sessionId))
        } catch SleepCycleSdkError.storageFailure {
            // Opening may already notice the damage.
        }
        // And opening with recovery sets the damaged file aside and starts empty
        let recovered = try SessionJournal.openRecovering(databaseURL: url)
        XCTAssertNotNil(recovered.quarantined)
        XCTAssertEqual(try recovered.journal.activeSessions(), [])
    }

    func test_open_in_an_unwritable_place_gives_storageFailure() throws {
        let file = try makeTemporaryDirectory(self).appendingPathComponent("plain-file")
        try Data("x".utf8).write(to: file)
        let message = assertStorageFailure(try SessionStore(directory: file.appendingPathComponent("store")))
        XCTAssertTrue(message?.contains("plain-file") ?? false, message ?? "")
    }
}
