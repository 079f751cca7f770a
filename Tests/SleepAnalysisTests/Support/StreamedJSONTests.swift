import Foundation
import XCTest

@testable import SleepAnalysis

/// `StreamedJSON` writes what a pretty-printed, key-sorted `JSONEncoder` writes, byte for byte, in blocks.
final class StreamedJSONTests: XCTestCase {
    private struct Reading: Codable, Equatable {
        let time: Date
        let value: Double
        let note: String?
    }

    private struct Night: Encodable {
        let name: String
        let readings: [Reading]
        let empty: [Int]
        let nothing: [String: Int]
        let nested: [[Int]]
        let byName: [String: [Int]]
        let optional: Int?
        let explicitNull: Int?

        enum CodingKeys: String, CodingKey {
            case name, readings, empty, nothing, nested, byName, optional, explicitNull, zeta = "Zeta", quoted =
                "a \"b\"/c"
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(name, forKey: .name)
            try container.encode(readings, forKey: .readings)
            try container.encode(empty, forKey: .empty)
            try container.encode(nothing, forKey: .nothing)
            try container.encode(nested, forKey: .nested)
            try container.encode(byName, forKey: .byName)
            try container.encodeIfPresent(optional, forKey: .optional)
            try container.encodeNil(forKey: .explicitNull)
            try container.encode(1.5, forKey: .zeta)
            try container.encode("line\nbreak \"quoted\" a/b", forKey: .quoted)
        }
    }

    /// A value that encodes part of itself through a nested container: encoded whole.
    private struct WithNestedContainer: Encodable {
        enum Keys: String, CodingKey { case outer, inner }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Keys.self)
            try container.encode([3, 2, 1], forKey: .outer)
            var nested = container.nestedContainer(keyedBy: Keys.self, forKey: .inner)
            try nested.encode("x", forKey: .inner)
        }
    }

    private func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode("t\(date.timeIntervalSince1970)")
        }
        return encoder
    }

    private func streamed(_ value: some Encodable, blocks: inout Int) throws -> Data {
        var out = Data()
        var count = 0
        try StreamedJSON.write(value, encoder: encoder()) {
            out.append($0)
            count += 1
        }
        blocks = count
        return out
    }

    private var night: Night {
        let readings = (0..<3_000).map {
            Reading(
                time: Date(timeIntervalSince1970: Double($0) * 30), value: Double($0) / 7,
                note: $0 % 3 == 0 ? nil : "n\($0)")
        }
        return Night(
            name: "demo", readings: readings, empty: [], nothing: [:], nested: [[1, 2], []],
            byName: ["b": [2], "a": []],
            optional: nil, explicitNull: nil)
    }

    func test_the_bytes_are_the_encoders_for_an_object_its_arrays_and_a_dictionary_of_them() throws {
        var blocks = 0
        XCTAssertEqual(try streamed(night, blocks: &blocks), try encoder().encode(night))
        XCTAssertGreaterThan(blocks, 3, "a 3,000-element array goes out in several blocks")
        let twoSleepers = ["secondary": night, "primary": night]
        XCTAssertEqual(try streamed(twoSleepers, blocks: &blocks), try encoder().encode(twoSleepers))
    }

    func test_an_analysis_result_streams_to_the_encoders_bytes() throws {
        let start = Date(timeIntervalSince1970: 1_796_000_000)
        let result = ScoringFixtures.result(
            start: start, runs: [(.awake, 20), (.light, 300), (.deep, 200), (.rem, 240)])
        var blocks = 0
        XCTAssertEqual(try streamed(result, blocks: &blocks), try encoder().encode(result))
    }

    func test_values_it_cannot_take_apart_are_encoded_whole_and_scalars_too() throws {
        var blocks = 0
        XCTAssertEqual(
            try streamed(WithNestedContainer(), blocks: &blocks), try encoder().encode(WithNestedContainer()))
        XCTAssertEqual(try streamed([1, 2, 3], blocks: &blocks), try encoder().encode([1, 2, 3]))
        XCTAssertEqual(try streamed(2.25, blocks: &blocks), try encoder().encode(2.25))
        XCTAssertEqual(try streamed([String: Int](), blocks: &blocks), try encoder().encode([String: Int]()))
    }

    func test_an_encoder_without_the_streamed_layout_is_refused() {
        let compact = JSONEncoder()
        XCTAssertThrowsError(try StreamedJSON.write(night, encoder: compact) { _ in }) { error in
            guard case SleepCycleSdkError.invalidConfiguration = error else { return XCTFail("\(error)") }
        }
    }
}
