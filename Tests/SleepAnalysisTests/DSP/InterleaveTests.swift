import XCTest

@testable import SleepAnalysis

/// The vectorised split of interleaved stereo equals a plain loop, at lengths around its eight-frame blocks.
final class InterleaveTests: XCTestCase {
    func test_planar_equalsAPlainLoop_atEveryLengthAroundTheBlocks() {
        var generator = SplitMix64(seed: 3)
        for frames in [0, 1, 7, 8, 9, 15, 16, 17, 1_001, 22_050] {
            let interleaved = (0..<(2 * frames)).map { _ in generator.nextSigned() }
            var first: [Float] = []
            var second: [Float] = []
            for frame in 0..<frames {
                first.append(interleaved[2 * frame])
                second.append(interleaved[2 * frame + 1])
            }
            XCTAssertEqual(DSPInterleave.planar(interleaved), first + second, "\(frames) frames")
        }
        // A last sample without its pair is left out.
        XCTAssertEqual(DSPInterleave.planar([1, 2, 3]), [1, 2])
    }
}
