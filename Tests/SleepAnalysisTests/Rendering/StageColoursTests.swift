import Foundation
import XCTest

@testable import SleepAnalysis

/// The stage palette survives greyscale printing and the common colour-vision deficiencies: the stages differ in
/// lightness (CIE L*, at least 15 apart, deep darkest and light lightest), and every pair stays at least ΔE 20 apart
/// under simulated protanopia, deuteranopia and tritanopia (Machado, Oliveira and Fernandes 2009, severity 1).
final class StageColoursTests: XCTestCase {
    /// The simulation matrices, on linear RGB.
    private static let deficiencies: [(name: String, matrix: [[Double]])] = [
        (
            "protanopia",
            [[0.152286, 1.052583, -0.204868], [0.114503, 0.786281, 0.099216], [-0.003882, -0.048116, 1.051998]]
        ),
        (
            "deuteranopia",
            [[0.367322, 0.860646, -0.227968], [0.280085, 0.672501, 0.047413], [-0.011820, 0.042940, 0.968881]]
        ),
        (
            "tritanopia",
            [[1.255528, -0.076749, -0.178779], [-0.078411, 0.930809, 0.147602], [0.004733, 0.691367, 0.303900]]
        ),
    ]

    func test_stages_differ_in_lightness_with_deep_darkest_and_light_lightest() {
        let lightness = Dictionary(
            uniqueKeysWithValues: SleepStage.allCases.map { ($0, Self.lab(Self.linear(StageColours.colour($0)))[0]) })
        let sorted = SleepStage.allCases.sorted { lightness[$0]! < lightness[$1]! }
        XCTAssertEqual(sorted.first, .deep, "\(lightness)")
        XCTAssertEqual(sorted.last, .light, "\(lightness)")
        for (darker, lighter) in zip(sorted, sorted.dropFirst()) {
            XCTAssertGreaterThanOrEqual(
                lightness[lighter]! - lightness[darker]!, 15, "\(darker) and \(lighter) in greyscale: \(lightness)")
        }
        XCTAssertGreaterThanOrEqual(lightness[.light]! - lightness[.deep]!, 50, "deep and light clearly apart")
    }

    func test_every_pair_of_stages_stays_apart_under_simulated_colour_vision_deficiencies() {
        for (name, matrix) in Self.deficiencies {
            let seen = Dictionary(
                uniqueKeysWithValues: SleepStage.allCases.map { stage in
                    let rgb = Self.linear(StageColours.colour(stage))
                    let simulated = matrix.map { row in min(1, max(0, zip(row, rgb).map(*).reduce(0, +))) }
                    return (stage, Self.lab(simulated))
                })
            for first in SleepStage.allCases {
                for second in SleepStage.allCases where first.rawValue < second.rawValue {
                    let distance = zip(seen[first]!, seen[second]!).map { ($0 - $1) * ($0 - $1) }.reduce(0, +)
                        .squareRoot()
                    XCTAssertGreaterThanOrEqual(distance, 20, "\(first) and \(second) under \(name)")
                }
            }
        }
    }

    func test_the_events_and_lines_are_not_stage_colours() {
        let stages = Set(StageColours.stages.values)
        for colour in [StageColours.event, StageColours.breathing, StageColours.soundLevel] {
            XCTAssertFalse(stages.contains(colour), colour)
        }
    }

    /// `#e0662f` as linear RGB, 0...1.
    private static func linear(_ hex: String) -> [Double] {
        let value = Int(hex.dropFirst(), radix: 16) ?? 0
        return [value >> 16 & 0xff, value >> 8 & 0xff, value & 0xff].map { channel in
            let c = Double(channel) / 255
            return c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4)
        }
    }

    /// CIE L*a*b* (D65) of linear RGB.
    private static func lab(_ rgb: [Double]) -> [Double] {
        let x = (0.4124 * rgb[0] + 0.3576 * rgb[1] + 0.1805 * rgb[2]) / 0.95047
        let y = 0.2126 * rgb[0] + 0.7152 * rgb[1] + 0.0722 * rgb[2]
        let z = (0.0193 * rgb[0] + 0.1192 * rgb[1] + 0.9505 * rgb[2]) / 1.08883
        func f(_ t: Double) -> Double { t > 0.008856 ? cbrt(t) : 7.787 * t + 16.0 / 116 }
        return [116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))]
    }
}
