import Foundation
import XCTest

@testable import SleepAnalysis

/// The result says the audio was band-limited whenever the events detector ran its band-limited model, even when
/// the whole-night bandwidth check could not tell (quiet 16-bit audio).
final class InputQualityMonitorTests: XCTestCase {
    func test_theEventsDetectorsBandLimitedChoice_isAWarning_evenWhenTheNightWasNotFlagged() {
        let monitor = InputQualityMonitor()
        let start = Date(timeIntervalSince1970: 1_000_000)
        let end = start.addingTimeInterval(3_600)
        XCTAssertEqual(monitor.warnings(start: start, audioEnd: end).map(\.kind), [])
        let warnings = monitor.warnings(start: start, audioEnd: end, bandLimitedEventModel: true)
        XCTAssertEqual(warnings.map(\.kind), [.bandLimitedAudio])
        XCTAssertTrue(warnings[0].message.contains("events-band-limited.bin"), warnings[0].message)
    }
}
