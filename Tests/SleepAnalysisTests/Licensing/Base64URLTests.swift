import Foundation
import XCTest

@testable import SleepAnalysis

/// Licence keys are base64url, and only the canonical text of each byte string decodes.
final class Base64URLTests: XCTestCase {
    func test_decode_roundTripsEncode_forEveryLength() throws {
        var generator = SplitMix64(seed: 64)
        for length in 0..<70 {
            let data = Data((0..<length).map { _ in UInt8(truncatingIfNeeded: generator.next()) })
            let text = Base64URL.encode(data)
            XCTAssertFalse(text.contains("="))
            XCTAssertEqual(try Base64URL.decode(Substring(text)), data, "length \(length)")
        }
        XCTAssertEqual(try Base64URL.decode("-_-_"), Data([0xFB, 0xFF, 0xBF]))
    }

    func test_decode_rejectsNonZeroUnusedBits_inLastCharacter() {
        // "AQ" is the byte 0x01 (4 unused bits), "AQE" the bytes 0x01 0x01 (2 unused bits)
        for text in ["AR", "AX", "AQF", "AQH"] {
            XCTAssertThrowsError(try Base64URL.decode(Substring(text)), text) {
                XCTAssertEqual($0 as? Base64URL.DecodingError, .nonZeroPaddingBits, text)
            }
        }
    }

    func test_decode_rejectsPadding_foreignCharacters_andImpossibleLengths() {
        let cases: [(String, Base64URL.DecodingError)] = [
            ("AQ==", .padding(offset: 2)), ("AQE=", .padding(offset: 3)), ("AQ+E", .invalidCharacter(offset: 2)),
            ("AQ/E", .invalidCharacter(offset: 2)), ("AQ E", .invalidCharacter(offset: 2)),
            ("AQé", .invalidCharacter(offset: 2)), ("A", .impossibleLength(1)), ("AAAAA", .impossibleLength(5)),
        ]
        for (text, expected) in cases {
            XCTAssertThrowsError(try Base64URL.decode(Substring(text)), text) {
                XCTAssertEqual($0 as? Base64URL.DecodingError, expected, text)
            }
        }
    }
}
