import TestSupport
import XCTest

@testable import SleepAnalysis

final class ModelStorePublisherTests: XCTestCase {
    private var directory: TemporaryDirectory!

    override func setUpWithError() throws { directory = try TemporaryDirectory() }
    override func tearDown() { directory.remove() }

    /// A folder laid out like `Models/`, with dummy files under the catalog's names.
    private func makeModelsFolder() throws -> URL {
        let folder = directory.url.appendingPathComponent("Models")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try ModelProvisionerTestKit.bytes(3_000, seed: 5).write(to: folder.appendingPathComponent("events.bin"))
        try ModelProvisionerTestKit.bytes(2_000, seed: 6).write(
            to: folder.appendingPathComponent("events-band-limited.bin"))
        try Data("{\"dummy\":true}".utf8).write(to: folder.appendingPathComponent("staging.json"))
        return folder
    }

    func test_publish_writesStore_thatSlimInitializeDownloadsFrom() async throws {
        // Given a store published by the command-line tool
        let store = directory.url.appendingPathComponent("store")
        let output = try runCommandLineTool([
            "models", "publish", "--from", try makeModelsFolder().path, "--out", store.path, "--version", "7",
        ])
        XCTAssertEqual(output.status, 0, output.standardError)
        XCTAssertEqual(output.standardOutput.split(separator: "\n").count, 3)
        XCTAssertTrue(FileManager.default.fileExists(atPath: store.appendingPathComponent("events-7.bin").path))
        // When slim provisioning uses it as a file:// store
        let provisioner = ModelProvisioner(
            mode: .slim(baseURL: store), modelsDirectory: directory.url.appendingPathComponent("data/models"),
            bundledModelsDirectory: nil)
        let models = try await provisioner.provision(for: .all)
        // Then every model is downloaded, byte for byte
        XCTAssertEqual(
            try Data(contentsOf: try models.url(for: "staging")),
            try Data(contentsOf: directory.url.appendingPathComponent("Models/staging.json")))
        XCTAssertEqual(try models.url(for: "events").lastPathComponent, "events-7.bin")
        XCTAssertEqual(try models.url(for: "events-band-limited").lastPathComponent, "events-band-limited-7.bin")
    }

    func test_publish_throwsModelUnavailable_whenSourceLacksAModel() throws {
        let folder = try makeModelsFolder()
        try FileManager.default.removeItem(at: folder.appendingPathComponent("staging.json"))
        XCTAssertThrowsError(
            try ModelStorePublisher.publish(from: folder, to: directory.url.appendingPathComponent("store"))
        ) {
            XCTAssertEqual($0 as? SleepCycleSdkError, .modelUnavailable("staging"))
        }
    }

    func test_publish_rejectsVersion_thatIsNotAFileNamePart() throws {
        XCTAssertThrowsError(
            try ModelStorePublisher.publish(
                from: try makeModelsFolder(), to: directory.url.appendingPathComponent("store"), version: "../x"))
    }
}
