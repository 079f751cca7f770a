import Foundation
import TestSupport
import XCTest

@testable import SleepAnalysis

/// Shared set-up for the model provisioning tests: a two-model catalog and deterministic dummy model files.
enum ModelProvisionerTestKit {
    /// "alpha" for audio events, "beta" for sleep staging.
    static let catalog = ModelCatalog(entries: [
        ModelCatalogEntry(name: "alpha", fileName: "alpha.bin", requiredBy: ["audioEvents", "snoringDetection"]),
        ModelCatalogEntry(name: "beta", fileName: "beta.json", requiredBy: ["sleepStaging"]),
    ])

    /// Deterministic bytes of a given size.
    static func bytes(_ count: Int, seed: UInt8) -> Data {
        var state = UInt32(seed) &* 2_654_435_761 &+ 1
        return Data(
            (0..<count).map { _ in
                state = state &* 1_664_525 &+ 1_013_904_223
                return UInt8(truncatingIfNeeded: state >> 24)
            })
    }

    /// A manifest listing `models` (name → bytes), each at `<name>-v1.bin`.
    static func manifest(_ models: [(name: String, data: Data)], version: String = "1") throws -> Data {
        let entries = try models.map { model in
            ModelManifestEntry(
                name: model.name, version: version, file: "\(model.name)-v\(version).bin",
                size: Int64(model.data.count),
                sha256: try SHA256Hasher.hex(of: model.data))
        }
        return try JSONEncoder().encode(entries)
    }

    /// Collects progress reports.
    final class ProgressRecorder: @unchecked Sendable {
        private let lock = NSLock()
        private var recorded: [Double] = []

        var values: [Double] {
            lock.lock()
            defer { lock.unlock() }
            return recorded
        }

        var callback: @Sendable (Double) -> Void {
            { [self] value in
                lock.lock()
                recorded.append(value)
                lock.unlock()
            }
        }
    }
}

/// Asserts that `body` throws the `SleepCycleSdkError` case `expected` matches.
func assertThrowsSdkError<T>(
    _ body: () async throws -> T, _ expected: (SleepCycleSdkError) -> Bool, file: StaticString = #filePath,
    line: UInt = #line
) async {
    do {
        _ = try await body()
        XCTFail("expected an error", file: file, line: line)
    } catch let error as SleepCycleSdkError {
        XCTAssertTrue(expected(error), "unexpected error \(error)", file: file, line: line)
    } catch {
        XCTFail("unexpected error type \(error)", file: file, line: line)
    }
}
