import Foundation
import SleepAnalysis
import TestSupport
import XCTest

final class StagingModelTests: XCTestCase {
    private func temporaryFile(_ contents: String) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("staging-\(UUID().uuidString).json")
        try contents.write(to: url, atomically: true, encoding: .utf8)
        addTeardownBlock { try? FileManager.default.removeItem(at: url) }
        return url
    }

    func test_load_throws_modelUnavailable_for_a_missing_file() {
        let url = URL(fileURLWithPath: "/nonexistent/staging.json")
        XCTAssertThrowsError(try StagingModel.load(from: url)) { error in
            guard case SleepCycleSdkError.modelUnavailable = error else { return XCTFail("got \(error)") }
        }
    }

    func test_load_throws_integrityCheckFailed_for_malformed_json() throws {
        let url = try temporaryFile("{\"format\": \"sleepanalysis-staging-1\", \"variants\": [")
        XCTAssertThrowsError(try StagingModel.load(from: url)) { error in
            guard case SleepCycleSdkError.modelIntegrityCheckFailed = error else { return XCTFail("got \(error)") }
        }
    }

    func test_load_throws_integrityCheckFailed_when_features_do_not_match_the_library() throws {
        // Given: the bundled model with one feature renamed.
        let bundled = FixturePaths.repositoryRoot.appendingPathComponent("Models/staging.json")
        var text = try String(contentsOf: bundled, encoding: .utf8)
        text = text.replacingOccurrences(of: "\"act_rank\"", with: "\"act_rank_v0\"")
        let url = try temporaryFile(text)

        XCTAssertThrowsError(try StagingModel.load(from: url)) { error in
            guard case SleepCycleSdkError.modelIntegrityCheckFailed(let why) = error else { return XCTFail("\(error)") }
            XCTAssertTrue(why.contains("features"), why)
        }
    }

    func test_load_throws_integrityCheckFailed_for_another_format() throws {
        let url = try temporaryFile(
            """
            {"format":"other","name":"x","stages":[],"variants":[],"sequence":{"initial":[],"transitions":[],
            "classPriors":[]},"decisionWeights":{},"emissionPriorExponents":{},
            "clockPrior":{"binHours":1,"probabilities":[]},"snoringWakeSuppression":0}
            """)
        XCTAssertThrowsError(try StagingModel.load(from: url)) { error in
            guard case SleepCycleSdkError.modelIntegrityCheckFailed = error else { return XCTFail("got \(error)") }
        }
    }

    func test_bundled_model_has_every_variant() throws {
        let model = try StagingModel.bundled()
        XCTAssertEqual(model.variants.count, StagingInputs.allCases.count * StagingContext.allCases.count)
    }
}
