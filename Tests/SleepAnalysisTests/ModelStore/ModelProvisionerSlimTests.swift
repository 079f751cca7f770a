import TestSupport
import XCTest

@testable import SleepAnalysis

final class ModelProvisionerSlimTests: XCTestCase {
    private typealias Kit = ModelProvisionerTestKit
    private var directory: TemporaryDirectory!
    private var server: LoopbackHTTPServer!
    private let alpha = Kit.bytes(200_000, seed: 1)
    private let beta = Kit.bytes(50_000, seed: 2)

    override func setUpWithError() throws {
        directory = try TemporaryDirectory()
        server = try LoopbackHTTPServer(
            files: [
                "/store/manifest.json": try Kit.manifest([("alpha", alpha), ("beta", beta)]),
                "/store/alpha-v1.bin": alpha, "/store/beta-v1.bin": beta,
            ], lifetime: 60)
    }

    override func tearDown() {
        server.stop()
        directory.remove()
    }

    private var modelsDirectory: URL { directory.url.appendingPathComponent("data/models") }
    private var storeURL: URL { server.baseURL.appendingPathComponent("store") }

    private func provisioner(_ base: URL?) -> ModelProvisioner {
        ModelProvisioner(
            mode: .slim(baseURL: base), modelsDirectory: modelsDirectory, catalog: Kit.catalog,
            bundledModelsDirectory: nil)
    }

    private func modelFiles() throws -> [String] {
        guard FileManager.default.fileExists(atPath: modelsDirectory.path) else { return [] }
        return try FileManager.default.contentsOfDirectory(atPath: modelsDirectory.path)
            .filter { !$0.hasPrefix(".") }.sorted()
    }

    func test_slim_downloadsOnlyNeededModels_withMonotonicProgressEndingAtOne() async throws {
        // Given a store with two models and a licence needing only alpha
        let progress = Kit.ProgressRecorder()
        // When provisioning
        let models = try await provisioner(storeURL).provision(
            for: SleepAnalysisFeatures(audioEvents: true), onProgress: progress.callback)
        // Then only the manifest and alpha were requested, and alpha's file is intact
        XCTAssertEqual(server.requests.map(\.path), ["/store/manifest.json", "/store/alpha-v1.bin"])
        XCTAssertEqual(try Data(contentsOf: try models.url(for: "alpha")), alpha)
        XCTAssertThrowsError(try models.url(for: "beta"))
        // And progress never went down and ended at exactly 1
        let values = progress.values
        XCTAssertGreaterThanOrEqual(values.count, 2)
        XCTAssertEqual(values, values.sorted())
        XCTAssertEqual(values.last, 1)
        XCTAssertTrue(values.allSatisfy { (0...1).contains($0) })
    }

    func test_slim_resumesInterruptedDownload_withRangeRequest() async throws {
        // Given a connection that drops after 80 000 of alpha's 200 000 bytes
        server.inject(.dropAfter(bytes: 80_000), forPath: "/store/alpha-v1.bin")
        let features = SleepAnalysisFeatures(audioEvents: true)
        // When the first attempt fails
        await assertThrowsSdkError({ try await self.provisioner(self.storeURL).provision(for: features) }) {
            if case .resourceDownloadFailed = $0 { return true }
            return false
        }
        let partial = try XCTUnwrap(try modelFiles().first { $0.hasSuffix(".partial") })
        let kept = try XCTUnwrap(
            try FileManager.default.attributesOfItem(atPath: modelsDirectory.appendingPathComponent(partial).path)[
                .size]
                as? NSNumber
        ).intValue
        XCTAssertGreaterThan(kept, 0)
        // And a second attempt is made
        let progress = Kit.ProgressRecorder()
        let models = try await provisioner(storeURL).provision(for: features, onProgress: progress.callback)
        // Then it asked only for the rest, and the file is complete and correct
        let modelRequests = server.requests.filter { $0.path == "/store/alpha-v1.bin" }
        XCTAssertEqual(modelRequests.count, 2)
        XCTAssertNil(modelRequests[0].range)
        XCTAssertEqual(modelRequests[1].range, "bytes=\(kept)-")
        XCTAssertEqual(try Data(contentsOf: try models.url(for: "alpha")), alpha)
        XCTAssertLessThan(server.bodyBytesSent, 2 * alpha.count + 4_096)
        XCTAssertFalse(try modelFiles().contains { $0.hasSuffix(".partial") })
        // And the resumed progress started where the partial file left off
        XCTAssertEqual(try XCTUnwrap(progress.values.first), Double(kept) / Double(alpha.count), accuracy: 1e-9)
        XCTAssertEqual(progress.values.last, 1)
    }

    func test_slim_restartsFromZero_whenServerIgnoresRange() async throws {
        // Given a partial download and a server that answers range requests with the whole file (200)
        server.inject(.dropAfter(bytes: 50_000), forPath: "/store/alpha-v1.bin")
        let features = SleepAnalysisFeatures(audioEvents: true)
        _ = try? await provisioner(storeURL).provision(for: features)
        server.honoursRange = false
        // When provisioning again
        let progress = Kit.ProgressRecorder()
        let models = try await provisioner(storeURL).provision(for: features, onProgress: progress.callback)
        // Then the file is rebuilt from the start, correct, and progress still never went down
        XCTAssertNotNil(server.requests.last?.range)
        XCTAssertEqual(try Data(contentsOf: try models.url(for: "alpha")), alpha)
        XCTAssertEqual(progress.values, progress.values.sorted())
        XCTAssertEqual(progress.values.last, 1)
    }

    func test_slim_concurrentProvisioning_downloadsOnce() async throws {
        // Given two provisioners sharing a data directory, started together
        let features = SleepAnalysisFeatures(audioEvents: true)
        let one = provisioner(storeURL)
        let other = provisioner(storeURL)
        async let first = one.provision(for: features)
        async let second = other.provision(for: features)
        let (a, b) = try await (first, second)
        // Then both get the intact file, and it was downloaded once (the second waited, then reused it)
        XCTAssertEqual(try Data(contentsOf: try a.url(for: "alpha")), alpha)
        XCTAssertEqual(try Data(contentsOf: try b.url(for: "alpha")), alpha)
        XCTAssertEqual(server.requests.filter { $0.path == "/store/alpha-v1.bin" }.count, 1)
    }

    func test_slim_reusesDownloads_onLaterStart_withoutNetwork() async throws {
        let features = SleepAnalysisFeatures(sleepStaging: true, audioEvents: true)
        _ = try await provisioner(storeURL).provision(for: features)
        let requestsAfterFirst = server.requests.count
        // When a later start provisions the same features, even with the server gone
        server.stop()
        let progress = Kit.ProgressRecorder()
        let models = try await provisioner(storeURL).provision(for: features, onProgress: progress.callback)
        // Then nothing was requested and both files are served from disk
        XCTAssertEqual(server.requests.count, requestsAfterFirst)
        XCTAssertEqual(try Data(contentsOf: try models.url(for: "beta")), beta)
        XCTAssertEqual(progress.values, [1])
    }

    func test_slim_downloadsAgain_whenLocalFileCorrupted() async throws {
        let features = SleepAnalysisFeatures(sleepStaging: true)
        let first = try await provisioner(storeURL).provision(for: features)
        try Data("corrupted".utf8).write(to: try first.url(for: "beta"))
        let second = try await provisioner(storeURL).provision(for: features)
        XCTAssertEqual(try Data(contentsOf: try second.url(for: "beta")), beta)
        XCTAssertEqual(server.requests.filter { $0.path == "/store/beta-v1.bin" }.count, 2)
    }

    func test_slim_throwsIntegrityCheckFailed_andRemovesFile_onChecksumMismatch() async throws {
        // Given a store whose file does not match its manifest checksum
        var wrong = alpha
        wrong[1_000] ^= 0xFF
        server.setFile("/store/alpha-v1.bin", wrong)
        // Then provisioning fails with modelIntegrityCheckFailed and leaves no file behind
        await assertThrowsSdkError({
            try await self.provisioner(self.storeURL).provision(for: SleepAnalysisFeatures(audioEvents: true))
        }) { $0 == .modelIntegrityCheckFailed("alpha") }
        XCTAssertEqual(try modelFiles(), [])
    }

    func test_slim_throwsIntegrityCheckFailed_whenFileLongerThanManifestSize() async throws {
        server.setFile("/store/alpha-v1.bin", alpha + Data([1, 2, 3]))
        await assertThrowsSdkError({
            try await self.provisioner(self.storeURL).provision(for: SleepAnalysisFeatures(audioEvents: true))
        }) { $0 == .modelIntegrityCheckFailed("alpha") }
        XCTAssertEqual(try modelFiles(), [])
    }

    func test_slim_needsNothing_forFeaturesWithoutModels() async throws {
        let models = try await provisioner(nil).provision(for: SleepAnalysisFeatures(multiChannelAnalysis: true))
        XCTAssertTrue(models.files.isEmpty)
        _ = try await provisioner(storeURL).provision(for: SleepAnalysisFeatures(multiChannelAnalysis: true))
        XCTAssertTrue(server.requests.isEmpty)
    }

    func test_slim_throwsResourceUnavailable_withoutBaseURL() async {
        await assertThrowsSdkError({
            try await self.provisioner(nil).provision(for: SleepAnalysisFeatures(audioEvents: true))
        }) { $0 == .resourceUnavailable("alpha") }
        XCTAssertTrue(server.requests.isEmpty)
    }

    func test_slim_throwsResourceUnavailable_whenManifestLacksNeededModel() async throws {
        server.setFile("/store/manifest.json", try Kit.manifest([("alpha", alpha)]))
        await assertThrowsSdkError({
            try await self.provisioner(self.storeURL).provision(for: SleepAnalysisFeatures(sleepStaging: true))
        }) { $0 == .resourceUnavailable("beta") }
    }

    func test_slim_throwsDownloadFailed_onHTTPErrors() async throws {
        let features = SleepAnalysisFeatures(audioEvents: true)
        server.inject(.status(500), forPath: "/store/alpha-v1.bin")
        await assertThrowsSdkError({ try await self.provisioner(self.storeURL).provision(for: features) }) {
            if case .resourceDownloadFailed(let why) = $0 { return why.message.contains("500") && $0.isTransient }
            return false
        }
        server.inject(.status(404), forPath: "/store/manifest.json")
        await assertThrowsSdkError({ try await self.provisioner(self.storeURL).provision(for: features) }) {
            if case .resourceDownloadFailed(let why) = $0 { return why.cause == .httpStatus(404) && !$0.isTransient }
            return false
        }
        // And a later attempt, with the server healthy, succeeds
        let models = try await provisioner(storeURL).provision(for: features)
        XCTAssertEqual(try Data(contentsOf: try models.url(for: "alpha")), alpha)
    }

    func test_slim_throwsDownloadFailed_whenManifestInvalid_orServerUnreachable() async throws {
        let features = SleepAnalysisFeatures(audioEvents: true)
        server.setFile("/store/manifest.json", Data("<html>".utf8))
        await assertThrowsSdkError({ try await self.provisioner(self.storeURL).provision(for: features) }) {
            if case .resourceDownloadFailed = $0 { return true }
            return false
        }
        let unreachable = server.baseURL
        server.stop()
        await assertThrowsSdkError({ try await self.provisioner(unreachable).provision(for: features) }) {
            if case .resourceDownloadFailed = $0 { return true }
            return false
        }
    }

    func test_slim_rejectsManifestEntry_withPathInFileName() async throws {
        let entry = ModelManifestEntry(
            name: "alpha", version: "1", file: "../../escape", size: 1, sha256: String(repeating: "0", count: 64))
        server.setFile("/store/manifest.json", try JSONEncoder().encode([entry]))
        await assertThrowsSdkError({
            try await self.provisioner(self.storeURL).provision(for: SleepAnalysisFeatures(audioEvents: true))
        }) {
            if case .resourceDownloadFailed = $0 { return true }
            return false
        }
    }

    func test_slim_worksWithFileURLStore_andResumesPartialFile() async throws {
        // Given a file:// store, and a partial download of the right bytes already on disk
        let store = directory.url.appendingPathComponent("store")
        try FileManager.default.createDirectory(at: store, withIntermediateDirectories: true)
        try Kit.manifest([("alpha", alpha)]).write(to: store.appendingPathComponent("manifest.json"))
        try alpha.write(to: store.appendingPathComponent("alpha-v1.bin"))
        try FileManager.default.createDirectory(at: modelsDirectory, withIntermediateDirectories: true)
        let hash = try SHA256Hasher.hex(of: alpha)
        try alpha.prefix(1_234).write(
            to: modelsDirectory.appendingPathComponent("alpha-v1.bin.\(hash.prefix(12)).partial"))
        // When provisioning
        let progress = Kit.ProgressRecorder()
        let models = try await provisioner(store).provision(
            for: SleepAnalysisFeatures(audioEvents: true), onProgress: progress.callback)
        // Then the model is complete, and progress started from the partial size
        XCTAssertEqual(try Data(contentsOf: try models.url(for: "alpha")), alpha)
        XCTAssertEqual(try XCTUnwrap(progress.values.first), 1_234 / Double(alpha.count), accuracy: 1e-9)
    }

    func test_slim_fileURLStore_missingManifest_throwsDownloadFailed() async throws {
        let store = directory.url.appendingPathComponent("empty-store")
        await assertThrowsSdkError({
            try await self.provisioner(store).provision(for: SleepAnalysisFeatures(audioEvents: true))
        }) {
            if case .resourceDownloadFailed = $0 { return true }
            return false
        }
    }

    func test_removeDownloadedModels_deletesEverything_andNextStartDownloadsAgain() async throws {
        let features = SleepAnalysisFeatures(audioEvents: true)
        _ = try await provisioner(storeURL).provision(for: features)
        try provisioner(storeURL).removeDownloadedModels()
        XCTAssertFalse(FileManager.default.fileExists(atPath: modelsDirectory.path))
        _ = try await provisioner(storeURL).provision(for: features)
        XCTAssertEqual(server.requests.filter { $0.path == "/store/alpha-v1.bin" }.count, 2)
    }

    func test_slim_downloadsNewVersion_whenManifestChangesAfterLibraryUpgrade() async throws {
        // Given alpha v1 installed, and a record claiming an older library version (as after an upgrade)
        let features = SleepAnalysisFeatures(audioEvents: true)
        _ = try await provisioner(storeURL).provision(for: features)
        var record = try XCTUnwrap(InstalledModels.load(from: modelsDirectory))
        record.libraryVersion = "0.0.0-old"
        try record.save(to: modelsDirectory)
        let alpha2 = Kit.bytes(30_000, seed: 9)
        server.setFile("/store/manifest.json", try Kit.manifest([("alpha", alpha2)], version: "2"))
        server.setFile("/store/alpha-v2.bin", alpha2)
        // When the next start provisions
        let models = try await provisioner(storeURL).provision(for: features)
        // Then it fetched the manifest again and got version 2
        XCTAssertEqual(try Data(contentsOf: try models.url(for: "alpha")), alpha2)
    }
}
