import Foundation
import SleepAnalysisEvaluation
import TestSupport
import XCTest

@testable import SleepAnalysis

/// The profile (`sleepanalysis-bench profile`) runs every stage over the whole recording and times each.
final class NightProfileTests: XCTestCase {
    func test_profile_runsEveryStageOverTheWholeClip_andTimesEach() throws {
        // Given the 75-s breathing clip (Ogg Opus, 16 kHz)
        let url = FixturePaths.fixtures.appendingPathComponent("clip_breathing_15bpm.ogg")
        let reader = try AudioFileReader(url: url)
        // When it is profiled
        let result = try NightProfile.run(file: url)
        // Then all of it went through, every stage that has work was timed, and the engines gave their outputs
        XCTAssertEqual(result.audioSeconds, Double(reader.frameCount) / reader.sampleRate, accuracy: 1 / 16_000)
        for stage in [NightProfile.Stage.decode, .frontEnd, .events, .breathing, .audioHealth] {
            XCTAssertGreaterThan(result.cpuSeconds[stage] ?? 0, 0, "\(stage)")
        }
        XCTAssertEqual(Set(result.cpuSeconds.keys), Set(NightProfile.Stage.allCases))
        XCTAssertGreaterThan(result.outputs, 0)
    }
}
