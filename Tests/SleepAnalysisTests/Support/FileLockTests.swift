import Foundation
import TestSupport
import XCTest

@testable import SleepAnalysis

/// `FileLock`, the one `flock` wrapper: two holders in one process exclude each other; the second is refused at
/// once (`acquireNow`, the storage directory's hold) or waits until the first lets go (`acquire`, the model
/// download lock).
final class FileLockTests: XCTestCase {
    private var directory: TemporaryDirectory!
    private var url: URL { directory.url.appendingPathComponent("test.lock") }

    override func setUpWithError() throws {
        directory = try TemporaryDirectory()
    }

    override func tearDown() {
        directory.remove()
    }

    func test_aSecondHolderInTheSameProcess_isRefusedAtOnce_untilTheFirstReleases() throws {
        let first = try FileLock.acquireNow(url)
        XCTAssertTrue(first.isHeld)
        XCTAssertThrowsError(try FileLock.acquireNow(url)) { error in
            XCTAssertEqual(error as? FileLockError, .held)
        }
        first.release()
        first.release()
        XCTAssertFalse(first.isHeld)
        let second = try FileLock.acquireNow(url)
        XCTAssertTrue(second.isHeld)
    }

    func test_theLockIsReleasedWhenItsLastReferenceGoes() throws {
        var first: FileLock? = try FileLock.acquireNow(url)
        XCTAssertNotNil(first)
        first = nil
        XCTAssertNoThrow(try FileLock.acquireNow(url))
    }

    func test_aWaitingHolder_takesTheLockWhenTheFirstReleases() async throws {
        let first = try FileLock.acquireNow(url)
        let url = url
        let waiter = Task { try await FileLock.acquire(url, timeout: 30) }
        try await Task.sleep(nanoseconds: 200_000_000)
        first.release()
        let second = try await waiter.value
        XCTAssertTrue(second.isHeld)
    }

    func test_aWaitingHolder_givesUpAfterItsTimeout_andWhenCancelled() async throws {
        let first = try FileLock.acquireNow(url)
        do {
            _ = try await FileLock.acquire(url, timeout: 0.2)
            XCTFail("the lock was taken twice")
        } catch {
            XCTAssertEqual(error as? FileLockError, .timedOut)
        }
        let url = url
        let waiter = Task { try await FileLock.acquire(url, timeout: 30) }
        waiter.cancel()
        do {
            _ = try await waiter.value
            XCTFail("the lock was taken twice")
        } catch {
            XCTAssertTrue(error is CancellationError, "\(error)")
        }
        XCTAssertTrue(first.isHeld)
    }

    func test_aLockFileInAMissingFolder_cannotBeOpened() {
        let missing = directory.url.appendingPathComponent("missing/test.lock")
        XCTAssertThrowsError(try FileLock.acquireNow(missing)) { error in
            XCTAssertEqual(error as? FileLockError, .cannotOpen(reason: "No such file or directory"))
        }
    }
}
