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

    /// One minute of 10-Hz envelope frames: a breath sound every `period` frames, every third one louder (a
    /// pattern of `loud`, `soft`, `soft`), plus a little deterministic noise.
    private func louderEveryThird(period: Int, loud: Double, soft: Double) -> [Float] {
        var generator = LinearCongruential(seed: 7)
        var frames: [Float] = []
        for t in 0..<600 {
            var value = 0.0
            for (index, center) in stride(from: 0, to: 640, by: period).enumerated() {
                let amplitude = index % 3 == 0 ? loud : soft
                value += amplitude * exp(-0.5 * pow(Double(t - center) / 3, 2))
            }
            value += 0.02 * (generator.next() - 0.5)
            frames += [Float(value), Float(0.9 * value)]
        }
        return frames
    }

    func test_analyze_finds_the_breath_when_every_third_one_is_louder() throws {
        // Given 24 breaths/min (every 2.5 s), every third breath louder: the autocorrelation peaks highest at
        // three breaths (8 per minute), and the peaks at one and two breaths reach only about two thirds of it,
        // under the picker's 0.7
        let frames = louderEveryThird(period: 25, loud: 1, soft: 0.45)
        func analyzer(harmonicFraction: Double) throws -> PeriodicityAnalyzer {
            try PeriodicityAnalyzer(
                frameRate: 10, minimumBpm: 6, maximumBpm: 30, searchesHalfCycles: true,
                harmonicFraction: harmonicFraction, maximumFrames: 601, maximumChannels: 2)
        }

        // When: the picker runs with its sub-harmonic check (the default) and without it
        let checked = try XCTUnwrap(try analyzer(harmonicFraction: 0.6).analyze(frames: frames, channelCount: 2))
        let unchecked = try XCTUnwrap(try analyzer(harmonicFraction: 0).analyze(frames: frames, channelCount: 2))

        // Then: without the check the rate is a third of the breath's; with it, the breath's
        XCTAssertEqual(unchecked.bpm, 8, accuracy: 0.5, "the picker alone takes the tripled period")
        XCTAssertEqual(checked.bpm, 24, accuracy: 0.5)
        XCTAssertEqual(checked.harmonic, 3)
    }
}
