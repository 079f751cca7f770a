import Foundation
import XCTest

/// `record --list-devices`, and `record` on a machine without a usable sound card: one clear message, none of
/// libasound's own `ALSA lib …` lines.
final class RecordDevicesCommandTests: XCTestCase {
    func test_list_devices_prints_a_list_and_exits_0() throws {
        let output = try runCommandLineTool(["record", "--list-devices"])
        XCTAssertEqual(output.status, 0, output.standardError)
        XCTAssertFalse(output.standardOutput.isEmpty)
        XCTAssertFalse(output.standardError.contains("ALSA lib"), output.standardError)
        let lines = output.standardOutput.split(separator: "\n")
        XCTAssertTrue(
            lines == ["no capture devices (no sound card with a microphone input)"]
                || lines.allSatisfy { $0.hasPrefix("plughw:CARD=") }, output.standardOutput)
    }

    func test_record_from_a_missing_device_fails_with_one_line_and_no_ALSA_lib_output() throws {
        let storage = try makeTemporaryDirectory(self)
        let output = try runCommandLineTool(
            ["record", "--device", "hw:CARD=NoSuchCard,DEV=7", "--duration", "1", "--storage", storage.path])
        XCTAssertEqual(output.status, 65, output.standardError)
        XCTAssertFalse(output.standardError.contains("ALSA lib"), output.standardError)
        let messages = output.standardError.split(separator: "\n").filter { !$0.hasPrefix("recording from") }
        XCTAssertEqual(messages.count, 1, output.standardError)
        XCTAssertTrue(messages.first?.contains("NoSuchCard") ?? false, output.standardError)
    }
}
