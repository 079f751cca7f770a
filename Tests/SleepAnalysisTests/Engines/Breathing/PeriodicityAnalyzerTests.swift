import Foundation
import XCTest

@testable import SleepAnalysis

final class PeriodicityAnalyzerTests: XCTestCase {
    /// One minute of 10-Hz envelope frames (two bands): a sound every `soundPeriod` frames, all alike (inhale and
    /// exhale equally loud), and a loudness swell over five of them.
    private func equalHalfCycles(soundPeriod: Double) -> [Float] {
        var frames: [Float] = []
        for t in 0..<600 {
            let time = Double(t)
            var value = 0.0
            for center in stride(from: 0.0, to: 600, by: soundPeriod) {
                value += exp(-0.5 * pow((time - center) / 2, 2))
            }
            value += 0.3 * sin(2 * .pi * time / (5 * soundPeriod))
            frames += [Float(value), Float(0.8 * value + 0.01 * sin(time))]
        }
        return frames
    }

    private func analyzer(searchesHalfCycles: Bool) throws -> PeriodicityAnalyzer {
        try PeriodicityAnalyzer(
            frameRate: 10, minimumBpm: 6, maximumBpm: 30, searchesHalfCycles: searchesHalfCycles,
            maximumFrames: 601, maximumChannels: 2)
    }

    func test_analyze_counts_two_sounds_per_breath_when_they_come_faster_than_the_fastest_breath() throws {
        // Given inhale and exhale sounding alike every 1.5 s: 20 breaths/min, the sounds at 40/min (above 30)
        let frames = equalHalfCycles(soundPeriod: 15)
        // When the audio analyser looks below the breathing range too
        let found = try XCTUnwrap(try analyzer(searchesHalfCycles: true).analyze(frames: frames, channelCount: 2))
        // Then the breath is the pair of sounds, not a multiple of it
        XCTAssertEqual(found.bpm, 20, accuracy: 0.5)
        XCTAssertGreaterThan(found.score, 0.15)
    }

    func test_analyze_doubles_a_half_cycle_at_25_breaths_per_minute() throws {
        let frames = equalHalfCycles(soundPeriod: 12)
        let found = try XCTUnwrap(try analyzer(searchesHalfCycles: true).analyze(frames: frames, channelCount: 2))
        XCTAssertEqual(found.bpm, 25, accuracy: 0.5)
    }
}
