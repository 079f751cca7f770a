import XCTest

@testable import SleepAnalysis

final class ModelTypesTests: XCTestCase {
    func test_stageProbabilities_normalise_to_one_and_subscript_by_stage() {
        let p = SleepStageProbabilities(awake: 1, rem: 1, light: 2, deep: 0)
        XCTAssertEqual(p.awake + p.rem + p.light + p.deep, 1, accuracy: 1e-12)
        XCTAssertEqual(p[.light], 0.5, accuracy: 1e-12)
        XCTAssertEqual(p.mostLikely, .light)
    }

    func test_eventType_sets_partition_all_cases() {
        XCTAssertTrue(EventType.standardTypes.isDisjoint(with: EventType.extendedTypes))
        XCTAssertEqual(EventType.standardTypes.union(EventType.extendedTypes), Set(EventType.allCases))
    }

    func test_features_from_names_reports_unknown_names() {
        var unknown: [String] = []
        let f = SleepAnalysisFeatures(names: ["audioEvents", "bogus"], unknown: &unknown)
        XCTAssertTrue(f.audioEvents)
        XCTAssertFalse(f.sleepStaging)
        XCTAssertEqual(unknown, ["bogus"])
    }
}
