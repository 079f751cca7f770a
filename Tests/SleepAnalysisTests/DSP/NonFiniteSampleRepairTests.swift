import XCTest

@testable import SleepAnalysis

/// `NonFiniteSampleRepair`: NaN and infinities become silence, finite samples are left alone and not copied.
final class NonFiniteSampleRepairTests: XCTestCase {
    func testRepairsEveryNonFiniteValueAndCountsThem() {
        var samples: [Float] = [0.5, .nan, -0.25, .infinity, -.infinity, 0, .nan]
        XCTAssertEqual(NonFiniteSampleRepair.zero(&samples), 4)
        XCTAssertEqual(samples, [0.5, 0, -0.25, 0, 0, 0, 0])
    }

    func testFiniteSamplesAreKeptWithoutCopyingASharedArray() {
        let shared: [Float] = (0..<4_096).map { Float($0 % 17) / 17 - 0.5 }
        var samples = shared
        XCTAssertEqual(NonFiniteSampleRepair.zero(&samples), 0)
        XCTAssertEqual(samples, shared)
        let sameStorage = samples.withUnsafeBufferPointer { mine in
            shared.withUnsafeBufferPointer { theirs in mine.baseAddress == theirs.baseAddress }
        }
        XCTAssertTrue(sameStorage, "a clean chunk must not be copied")
    }
}
