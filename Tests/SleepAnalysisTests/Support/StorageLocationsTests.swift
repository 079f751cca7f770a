import TestSupport
import XCTest

@testable import SleepAnalysis

final class StorageLocationsTests: XCTestCase {
    func test_resolve_usesXDGVariables_whenAbsolute() {
        let locations = StorageLocations.resolve(
            storageDirectory: nil,
            environment: ["HOME": "/home/u", "XDG_STATE_HOME": "/xdg/state", "XDG_DATA_HOME": "/xdg/data"])
        XCTAssertEqual(locations.stateDirectory.path, "/xdg/state/sleepanalysis")
        XCTAssertEqual(locations.dataDirectory.path, "/xdg/data/sleepanalysis")
    }

    func test_resolve_fallsBackToHome_whenXDGUnsetOrRelative() {
        let locations = StorageLocations.resolve(
            storageDirectory: nil, environment: ["HOME": "/home/u", "XDG_STATE_HOME": "relative/path"])
        XCTAssertEqual(locations.stateDirectory.path, "/home/u/.local/state/sleepanalysis")
        XCTAssertEqual(locations.dataDirectory.path, "/home/u/.local/share/sleepanalysis")
    }

    func test_resolve_usesOverride_forStateAndData() {
        let locations = StorageLocations.resolve(
            storageDirectory: URL(fileURLWithPath: "/srv/sa"), environment: ["XDG_STATE_HOME": "/xdg/state"])
        XCTAssertEqual(locations.stateDirectory.path, "/srv/sa/state")
        XCTAssertEqual(locations.dataDirectory.path, "/srv/sa/data")
        XCTAssertEqual(locations.modelsDirectory.path, "/srv/sa/data/models")
        XCTAssertEqual(locations.licenseCacheDirectory.path, "/srv/sa/state/license")
    }

    func test_prepare_createsDirectory_onDemand() throws {
        let temporary = try TemporaryDirectory()
        defer { temporary.remove() }
        let target = temporary.url.appendingPathComponent("a/b/c")
        try StorageLocations.prepare(target)
        var isDirectory: ObjCBool = false
        XCTAssertTrue(FileManager.default.fileExists(atPath: target.path, isDirectory: &isDirectory))
        XCTAssertTrue(isDirectory.boolValue)
    }

    func test_prepare_throwsStorageFailure_whenPathIsAFile() throws {
        let temporary = try TemporaryDirectory()
        defer { temporary.remove() }
        let file = temporary.url.appendingPathComponent("file")
        try Data("x".utf8).write(to: file)
        XCTAssertThrowsError(try StorageLocations.prepare(file.appendingPathComponent("sub"))) { error in
            guard case SleepCycleSdkError.storageFailure(let why)? = error as? SleepCycleSdkError else {
                return XCTFail("expected storageFailure, got \(error)")
            }
            XCTAssertTrue(why.message.contains(file.path))
        }
        XCTAssertThrowsError(try StorageLocations.prepare(file))
    }
}
