import Foundation
import TestSupport
import XCTest

@testable import SleepAnalysis

/// One JSON contract: every command's JSON carries `schemaVersion`, is written by `SleepAnalysisJSON` and matches
/// its schema in `Schemas/`, checked by a real validator on real outputs.
final class JSONContractTests: XCTestCase {
    private func validate(_ text: String, _ schema: String, file: StaticString = #filePath, line: UInt = #line) throws {
        XCTAssertEqual(try JSONSchemaValidator.errors(in: text, schema: schema), [], file: file, line: line)
        let object = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
        XCTAssertEqual(object?["schemaVersion"] as? Int, SleepAnalysisJSON.schemaVersion, file: file, line: line)
    }

    func test_everySchema_isAValidDraft2020Schema() throws {
        let run = try JSONSchemaValidator.run(["--check-schemas"])
        XCTAssertEqual(run.status, 0, run.output)
        XCTAssertEqual(run.output.split(separator: "\n").count, 11, run.output)
    }

    /// The demo night through `analyze` (with a smart-alarm window, so `smartAlarm` has events), then the store's
    /// `history` and `export --healthkit` of it: each output matches its schema.
    func test_analyze_history_and_export_ofTheDemoNight_matchTheirSchemas() throws {
        let directory = try makeTemporaryDirectory(self)
        let store = directory.appendingPathComponent("store").path
        let analyze = try runCommandLineTool(
            [
                "analyze", FixturePaths.fixtures.appendingPathComponent("night_short.ogg").path, "--start",
                "2026-12-01T23:00:00Z", "--accelerometer",
                FixturePaths.fixtures.appendingPathComponent("night_short_accelerometer.csv").path,
                "--wakeup-window", "2026-12-01T23:15Z/23:25", "--format", "json", "--quiet", "--store", store,
                "--storage", directory.appendingPathComponent("state").path,
            ], timeout: 120)
        XCTAssertEqual(analyze.status, 0, analyze.standardError)
        try validate(analyze.standardOutput, "analysis-result")
        let night = try XCTUnwrap(
            JSONSerialization.jsonObject(with: Data(analyze.standardOutput.utf8)) as? [String: Any])
        XCTAssertEqual(night["timeZone"] as? String, "Etc/UTC")
        XCTAssertFalse((night["smartAlarm"] as? [Any] ?? []).isEmpty, "the smart alarm was not armed")
        let sessionId = try XCTUnwrap(night["sessionId"] as? String)
        XCTAssertEqual(sessionId, sessionId.uppercased())

        // The document reads back into the library's result with the contract's decoder.
        let decoded = try SleepAnalysisJSON.makeDecoder().decode(
            AnalysisResult.self, from: Data(analyze.standardOutput.utf8))
        XCTAssertEqual(decoded.sessionId.uuidString, sessionId)
        XCTAssertEqual(decoded.timeZone.identifier, "Etc/UTC")
        XCTAssertEqual(decoded.startTime, SleepAnalysisJSON.date("2026-12-01T23:00:00Z"))

        let history = try runCommandLineTool(["history", "--store", store, "--format", "json"])
        XCTAssertEqual(history.status, 0, history.standardError)
        try validate(history.standardOutput, "night-history")
        XCTAssertTrue(history.standardOutput.contains(sessionId))

        let export = try runCommandLineTool(["export", "--healthkit", "--store", store, "--format", "json"])
        XCTAssertEqual(export.status, 0, export.standardError)
        try validate(export.standardOutput, "healthkit-export")
        XCTAssertTrue(export.standardOutput.contains(sessionId))

        // Text, CSV and JSON name the session alike.
        let text = try runCommandLineTool(["history", "--store", store])
        XCTAssertTrue(text.standardOutput.contains(sessionId), text.standardOutput)
    }

    func test_spl_and_breathing_matchTheirSchemas() throws {
        let clip = FixturePaths.fixtures.appendingPathComponent("clip_breathing_15bpm.ogg").path
        let spl = try runCommandLineTool(["spl", clip, "--format", "json"], timeout: 60)
        XCTAssertEqual(spl.status, 0, spl.standardError)
        try validate(spl.standardOutput, "sound-level")
        let breathing = try runCommandLineTool(["breathing", clip, "--format", "json"], timeout: 60)
        XCTAssertEqual(breathing.status, 0, breathing.standardError)
        try validate(breathing.standardOutput, "breathing")
        let document = try JSONSerialization.jsonObject(with: Data(breathing.standardOutput.utf8)) as? [String: Any]
        XCTAssertEqual(try XCTUnwrap(document?["medianBpm"] as? Double), 15, accuracy: 1.5)
    }

    /// The validator is no rubber stamp: a document of the old shape (no `schemaVersion`, the time zone as an
    /// object), an unknown event type and a date without milliseconds are each refused with their place.
    func test_theValidator_refusesDocumentsThatBreakTheContract() throws {
        let result = AnalysisResult(
            sessionId: UUID(), startTime: Date(timeIntervalSince1970: 1_800_000_000),
            endTime: Date(timeIntervalSince1970: 1_800_003_600), timeZone: TimeZone(identifier: "Europe/Berlin")!)
        let valid = String(
            decoding: try SleepAnalysisJSON.encode(AnalysisResultDocument(result: result, score: nil)), as: UTF8.self)
        XCTAssertEqual(try JSONSchemaValidator.errors(in: valid, schema: "analysis-result"), [])
        XCTAssertTrue(valid.contains("\"timeZone\" : \"Europe/Berlin\""), valid)

        var old = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(valid.utf8)) as? [String: Any])
        old.removeValue(forKey: "schemaVersion")
        old["timeZone"] = ["identifier": "Europe/Berlin"]
        old["startTime"] = "2027-01-15T08:00:00Z"
        old["events"] = [
            [
                "type": "goose", "interval": ["start": "2027-01-15T08:00:00.000Z", "duration": 1], "probability": 1,
                "source": "audio", "sessionId": result.sessionId.uuidString,
            ]
        ]
        let broken = String(decoding: try JSONSerialization.data(withJSONObject: old), as: UTF8.self)
        let errors = try JSONSchemaValidator.errors(in: broken, schema: "analysis-result")
        XCTAssertEqual(errors.count, 4, errors.joined(separator: "\n"))
        for place in ["(the document)", "timeZone", "startTime", "events/0/type"] {
            XCTAssertTrue(errors.contains { $0.contains(": \(place): ") }, "nothing about \(place): \(errors)")
        }
    }

    /// A result stored before 1.0 holds Foundation's keyed time zone; it still reads.
    func test_aResultWithTheOldTimeZoneForm_stillDecodes() throws {
        let result = AnalysisResult(
            sessionId: UUID(), startTime: Date(timeIntervalSince1970: 1_800_000_000),
            endTime: Date(timeIntervalSince1970: 1_800_003_600), timeZone: TimeZone(identifier: "Asia/Tokyo")!)
        var object = try XCTUnwrap(
            JSONSerialization.jsonObject(with: try SleepAnalysisJSON.encode(result)) as? [String: Any])
        object["timeZone"] = ["identifier": "Asia/Tokyo"]
        let decoded = try SleepAnalysisJSON.makeDecoder().decode(
            AnalysisResult.self, from: try JSONSerialization.data(withJSONObject: object))
        XCTAssertEqual(decoded, result)
        let stored = try PersistenceCoding.decode(
            AnalysisResult.self, from: try PersistenceCoding.encode(result, what: "a night"), what: "a night")
        XCTAssertEqual(stored, result)
    }

    /// The schemas' lists of names are the library's: a case added in Swift without the schema fails here.
    func test_theSchemasEnumerations_areTheLibrarys() throws {
        let common = try schema("common")
        let result = try schema("analysis-result")
        func names(_ object: Any?, _ path: [String]) -> [String] {
            var node = object
            for key in path { node = (node as? [String: Any])?[key] }
            return (node as? [String: Any])?["enum"] as? [String] ?? []
        }
        XCTAssertEqual(names(common, ["$defs", "eventType"]), EventType.allCases.map(\.rawValue))
        XCTAssertEqual(Set(names(common, ["$defs", "sleepStage"])), Set(SleepStage.allCases.map(\.rawValue)))
        let properties = ["properties"]
        XCTAssertEqual(
            names(result, properties + ["warnings", "items", "properties", "kind"]),
            AnalysisWarning.Kind.allCases.map(\.rawValue))
        XCTAssertEqual(
            names(result, properties + ["stagingBasis", "properties", "mode"]),
            StagingBasis.Mode.allCases.map(\.rawValue))
        XCTAssertEqual(
            names(result, properties + ["scoreUnavailableReason"]),
            SleepScoreUnavailableReason.allCases.map(\.rawValue))
    }

    private func schema(_ name: String) throws -> Any {
        let url = FixturePaths.repositoryRoot.appendingPathComponent("Schemas/\(name).schema.json")
        return try JSONSerialization.jsonObject(with: Data(contentsOf: url))
    }
}
