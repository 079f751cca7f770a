import XCTest

@testable import SleepAnalysis

final class HealthKitExportTests: XCTestCase {
    func test_healthKitSleepValue_rawValues_match_HealthKit() {
        XCTAssertEqual(HealthKitSleepValue.allCases.map(\.rawValue), [0, 1, 2, 3, 4, 5])
        XCTAssertEqual(
            HealthKitSleepValue.allCases.map(\.description),
            ["inBed", "asleepUnspecified", "awake", "asleepCore", "asleepDeep", "asleepREM"])
        XCTAssertEqual(
            HealthKitSleepValue.allCases.filter(\.isAsleep), [.asleepUnspecified, .asleepCore, .asleepDeep, .asleepREM])
    }

    func test_healthKitSleepValue_maps_each_stage() {
        XCTAssertEqual(HealthKitSleepValue(stage: .light), .asleepCore)
        XCTAssertEqual(HealthKitSleepValue(stage: .deep), .asleepDeep)
        XCTAssertEqual(HealthKitSleepValue(stage: .rem), .asleepREM)
        XCTAssertEqual(HealthKitSleepValue(stage: .awake), .awake)
    }

    func test_healthKitSamples_are_one_inBed_then_one_per_stage_interval() throws {
        let night = SessionStoreFixtures.night(startingHoursAfter: 22)
        let store = try SessionStore(directory: makeTemporaryDirectory(self))
        let samples = store.healthKitSamples(for: night)
        XCTAssertEqual(samples.map(\.value), [.inBed, .awake, .asleepCore, .asleepDeep, .asleepREM])
        XCTAssertEqual(samples[0].startDate, night.startTime)
        XCTAssertEqual(samples[0].endDate, night.endTime)
        XCTAssertEqual(samples[2].startDate, night.startTime + 60)
        XCTAssertEqual(samples[2].endDate, night.startTime + 180)
        XCTAssertTrue(samples.allSatisfy { $0.sessionId == night.sessionId && $0.timeZone == "Asia/Tokyo" })
    }

    func test_healthKitSamples_fall_back_to_realTime_stages() {
        var night = SessionStoreFixtures.night(startingHoursAfter: 22)
        night.realTimeSleepStageIntervals = [night.sleepStageIntervals[1]]
        night.sleepStageIntervals = []
        XCTAssertEqual(HealthKitSleepSample.samples(for: night).map(\.value), [.inBed, .asleepCore])
    }

    func test_export_json_and_csv_carry_values_and_iso_dates() throws {
        let night = SessionStoreFixtures.night(startingHoursAfter: 22.5)
        let samples = HealthKitSleepSample.samples(for: night)
        let document = try JSONSerialization.jsonObject(with: HealthKitExport.json(samples)) as? [String: Any]
        XCTAssertEqual(document?["schemaVersion"] as? Int, SleepAnalysisJSON.schemaVersion)
        let json = document?["samples"] as? [[String: Any]]
        XCTAssertEqual(json?.count, samples.count)
        XCTAssertEqual(json?[3]["value"] as? Int, 4)
        XCTAssertEqual(json?[3]["valueName"] as? String, "asleepDeep")
        XCTAssertEqual(json?[0]["startDate"] as? String, "2026-11-01T22:30:00.000Z")
        XCTAssertEqual(json?[0]["sessionId"] as? String, night.sessionId.uuidString)

        let lines = HealthKitExport.csv(samples).split(separator: "\n")
        XCTAssertEqual(lines.first.map(String.init), HealthKitExport.csvHeader)
        XCTAssertEqual(lines.count, samples.count + 1)
        XCTAssertEqual(
            String(lines[1]),
            "\(night.sessionId.uuidString),0,inBed,2026-11-01T22:30:00.000Z,2026-11-01T22:36:00.000Z,Asia/Tokyo")
    }

    func test_healthKitSample_roundTrips_through_codable() throws {
        let sample = HealthKitSleepSample(
            value: .asleepREM, startDate: Date(timeIntervalSince1970: 10), endDate: Date(timeIntervalSince1970: 40),
            sessionId: UUID(), timeZone: "UTC")
        XCTAssertEqual(try JSONDecoder().decode(HealthKitSleepSample.self, from: JSONEncoder().encode(sample)), sample)
    }

    func test_store_healthKitSamples_in_range_is_a_sample_query_sorted_by_end_date() throws {
        // Given two stored nights
        let store = try SessionStore(directory: makeTemporaryDirectory(self))
        let first = SessionStoreFixtures.night(startingHoursAfter: 22)
        let second = SessionStoreFixtures.night(startingHoursAfter: 46)
        try store.save(first)
        try store.save(second)

        // When asking for the second calendar day (UTC) only
        let day = DateInterval(start: SessionStoreFixtures.november1 + 24 * 3600, duration: 24 * 3600)
        let samples = try store.healthKitSamples(in: day)

        // Then the second night's samples come back, sorted by end date; inBed ends with the last stage and,
        // starting earlier, comes before it
        XCTAssertEqual(samples.map(\.value), [.awake, .asleepCore, .asleepDeep, .inBed, .asleepREM])
        XCTAssertTrue(samples.allSatisfy { $0.sessionId == second.sessionId && $0.timeZone == "Asia/Tokyo" })
        XCTAssertEqual(
            Set(samples), Set(HealthKitSleepSample.samples(for: second)), "the same samples as exported")
    }
}
