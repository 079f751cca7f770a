import Foundation
import TestSupport
import XCTest

@testable import SleepAnalysis

/// A test case with one `SleepAnalyzer` initialized under a test licence in a temporary storage directory, and
/// released after each test.
class InitializedAnalyzerTestCase: XCTestCase {
    /// The test's files (the analyzer's state is in `state/`).
    var storage: TemporaryDirectory!
    /// The analyzer, initialized.
    var analyzer: SleepAnalyzer!

    /// The name of the analyzer and the prefix of its storage directory.
    var analyzerName: String { "analyzer-test" }

    override func setUp() async throws {
        try await super.setUp()
        storage = try TemporaryDirectory(prefix: analyzerName)
        let licence = try TestLicenses.make()
        analyzer = SleepAnalyzer(name: analyzerName)
        try await analyzer.initialize(
            logLevel: .warning, apiKey: licence.apiKey, storageDirectory: storage.url.appendingPathComponent("state"),
            trustedIssuerKeys: [licence.trustedKey])
    }

    override func tearDown() async throws {
        await analyzer.deinitialize()
        storage.remove()
        try await super.tearDown()
    }
}
