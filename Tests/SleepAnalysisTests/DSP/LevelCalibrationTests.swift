import XCTest

@testable import SleepAnalysis

/// Calibrated levels: dB SPL = dBFS + 94 − sensitivity, full-scale sine = 0 dBFS.
final class LevelCalibrationTests: XCTestCase {
    static let minus26Dbfs = pow(10, -26.0 / 20)

    func test_calibration_offset_follows_from_microphone_sensitivity() {
        XCTAssertEqual(LevelCalibration.default.offsetDb, 120)
        XCTAssertEqual(LevelCalibration(microphoneSensitivityDbfs: -38).offsetDb, 132)
        XCTAssertEqual(LevelCalibration(offsetDb: 110).microphoneSensitivityDbfs, -16)
    }

    func test_frontEnd_reads_94dBSpl_for_1kHz_sine_at_minus26dBFS_with_default_calibration() throws {
        let frontEnd = try FrontEnd()
        let tone = TestSignals.sine(frequency: 1_000, amplitude: Self.minus26Dbfs, sampleRate: 16_000, count: 16_000)
        let block = frontEnd.process(tone)
        for frame in 0..<block.frameCount {
            XCTAssertEqual(Double(block.dbSpl[frame]), 94, accuracy: 0.2, "frame \(frame)")
            XCTAssertEqual(Double(block.dbfs[frame]), -26, accuracy: 0.2, "frame \(frame)")
        }
    }

    func test_soundLevelAnalysis_reads_94dBSpl_and_follows_explicit_offset() throws {
        let tone = TestSignals.sine(frequency: 1_000, amplitude: Self.minus26Dbfs, sampleRate: 48_000, count: 96_000)
        let standard = try SoundLevelAnalysis.analyze(samples: tone, sampleRate: 48_000)
        XCTAssertEqual(standard.leq, 94, accuracy: 0.05)
        XCTAssertEqual(standard.min, 94, accuracy: 0.1)
        XCTAssertEqual(standard.max, 94, accuracy: 0.1)
        let custom = try SoundLevelAnalysis.analyze(
            samples: tone, sampleRate: 48_000, calibration: LevelCalibration(offsetDb: 100))
        XCTAssertEqual(custom.leq, 74, accuracy: 0.05)
    }

    func test_soundLevelAnalysis_leq_is_energy_mean_of_loud_and_quiet_halves() throws {
        let quiet = TestSignals.sine(frequency: 1_000, amplitude: 0.01, sampleRate: 16_000, count: 160_000)
        let loud = TestSignals.sine(frequency: 1_000, amplitude: 0.1, sampleRate: 16_000, count: 160_000)
        let report = try SoundLevelAnalysis.analyze(samples: quiet + loud, sampleRate: 16_000)
        let quietDb = 20 * log10(0.01 / sqrt(2)) + 3.0103 + 120
        XCTAssertEqual(report.min, quietDb, accuracy: 0.1)
        XCTAssertEqual(report.max, quietDb + 20, accuracy: 0.1)
        XCTAssertEqual(
            report.leq, 10 * log10((pow(10, quietDb / 10) + pow(10, (quietDb + 20) / 10)) / 2), accuracy: 0.2)
        XCTAssertEqual(report.frames.count, 40)  // 20 s in hops of 0.5 s
        XCTAssertEqual(report.frameDuration, 0.5)
    }
}
