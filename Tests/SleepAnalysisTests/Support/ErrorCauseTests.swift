import CSQLite
import Foundation
import XCTest

@testable import SleepAnalysis

/// Errors carry typed causes that code switches on: damage is recognised from SQLite's code, not the message; a
/// DSP out-of-memory is transient; a server's status is kept.
final class ErrorCauseTests: XCTestCase {
    func test_aFileThatIsNoDatabase_failsWithItsSQLiteCode_andCountsAsDamage() throws {
        let directory = try makeTemporaryDirectory(self)
        let url = directory.appendingPathComponent("journal.sqlite")
        try Data(repeating: 0x5A, count: 8_192).write(to: url)
        XCTAssertThrowsError(try SQLiteDatabase(url: url).checkIntegrity()) { error in
            guard case .sqlite(let code)? = (error as? SleepCycleSdkError)?.cause else {
                return XCTFail("no SQLite cause: \(error)")
            }
            XCTAssertEqual(code & 0xff, SQLITE_NOTADB)
            XCTAssertTrue(SQLiteDatabase.isDamage(error))
            XCTAssertFalse((error as? SleepCycleSdkError)?.isTransient ?? true)
        }
    }

    func test_damage_isReadFromTheCause_notFromTheMessage() {
        let lookalike = SleepCycleSdkError.storageFailure(
            "cannot save: corrupt (SQLite 11, database disk image is malformed)")
        XCTAssertNil(lookalike.cause)
        XCTAssertFalse(SQLiteDatabase.isDamage(lookalike))
        let corrupt = SQLiteDatabase.storageError(code: SQLITE_CORRUPT, message: "malformed", context: "reading")
        XCTAssertEqual(corrupt.cause, .sqlite(resultCode: SQLITE_CORRUPT))
        XCTAssertTrue(SQLiteDatabase.isDamage(corrupt))
        let busy = SQLiteDatabase.storageError(code: SQLITE_BUSY, message: "locked", context: "writing")
        XCTAssertFalse(SQLiteDatabase.isDamage(busy))
        XCTAssertTrue(busy.isTransient)
        XCTAssertEqual(
            SQLiteDatabase.storageError(code: SQLITE_NOMEM, message: "no memory", context: "writing").cause,
            .outOfMemory)
    }

    func test_aDSPOutOfMemory_isATransientDataSourceFailure_andABackendFailureIsNot() {
        let memory = DSPError(.outOfMemory, "front end set-up").sdkError
        guard case .dataSourceFailure(let reason) = memory else { return XCTFail("\(memory)") }
        XCTAssertEqual(reason.cause, .outOfMemory)
        XCTAssertTrue(memory.isTransient)
        XCTAssertTrue(memory.localizedDescription.contains("front end set-up"), memory.localizedDescription)

        let backend = DSPError(.backend, "FFT plan").sdkError
        guard case .dsp? = backend.cause else { return XCTFail("\(backend)") }
        XCTAssertFalse(backend.isTransient)
        XCTAssertEqual(DSPError(.invalidArgument, "frame size").sdkError.cause, nil)
    }

    func test_whichCausesAreTransient() {
        let transient: [SleepCycleSdkError.Cause] = [
            .outOfMemory, .sqlite(resultCode: SQLITE_BUSY), .sqlite(resultCode: SQLITE_FULL), .system(errno: ENOSPC),
            .httpStatus(503), .httpStatus(429), .postgres(sqlState: "08006"), .postgres(sqlState: "57P01"),
            .postgres(sqlState: "40001"),
        ]
        let lasting: [SleepCycleSdkError.Cause] = [
            .sqlite(resultCode: SQLITE_CORRUPT), .system(errno: EACCES), .httpStatus(404), .httpStatus(401),
            .postgres(sqlState: "42P01"), .postgres(sqlState: "28P01"), .dsp(status: 4),
        ]
        for cause in transient { XCTAssertTrue(cause.isTransient, "\(cause)") }
        for cause in lasting { XCTAssertFalse(cause.isTransient, "\(cause)") }
        XCTAssertEqual(SleepCycleSdkError.Cause.system(errno: ENOSPC).description, "errno 28 (No space left on device)")
    }

    func test_theMessage_isTheSameWithOrWithoutACause() {
        let plain = SleepCycleSdkError.invalidInput("night.csv line 4: not a number")
        let typed = SleepCycleSdkError.invalidInput(.init("night.csv line 4: not a number", cause: .system(errno: EIO)))
        XCTAssertEqual(plain.localizedDescription, "Invalid input: night.csv line 4: not a number")
        XCTAssertEqual(typed.localizedDescription, plain.localizedDescription)
        XCTAssertNotEqual(plain, typed)
    }
}
