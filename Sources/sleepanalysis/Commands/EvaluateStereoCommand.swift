import CommandLineKit
import Foundation
import SleepAnalysis
import SleepAnalysisEvaluation

/// `sleepanalysis evaluate stereo --scenes DIR [--preset NAME] [--format json|text]`: the two-sleeper event
/// assignment on composed stereo scenes (`Tools/stereo/compose_scenes.py`: `DIR/**/scene_*.wav` with a
/// `scene_*.json` ground truth beside each).
///
/// Per preset and geometry: events, how many were assigned, the accuracy outside the ambiguity zone, the share
/// inside it, the confusion (true owner × primary/secondary/both/neither) and the mean time-difference error.
/// The detector is a stand-in that reports the true events (probability from each channel's SNR), so the
/// figures measure the spatial assignment alone. JSON output: `{"reports": [StereoAssignmentReport]}`, keys
/// sorted.
enum EvaluateStereoCommand {
    static let presets: [String: ChannelSeparationConfig] = [
        "bedSideMics": .bedSideMics, "centeredMicArray": .centeredMicArray,
        "detectionStrengthOnly": .detectionStrengthOnly(),
    ]
    static let specification = ArgumentSpecification(
        options: ["scenes", "preset", "format"],
        shortNames: ["f": "format"],
        usage: """
            usage: sleepanalysis evaluate stereo --scenes DIR [--preset NAME] [--format json|text]

                  --scenes DIR       composed scenes (scene_*.wav + scene_*.json, in DIR or its sub-folders)
                  --preset NAME      bedSideMics, centeredMicArray or detectionStrengthOnly (default: all three)
              -f, --format json|text output format (default text)

            """)

    private struct Output: Codable {
        var reports: [StereoAssignmentReport]
    }

    static func run(_ arguments: [String]) async throws {
        guard let parsed = try ArgumentParser.parseUnlessHelp(arguments, specification) else { return }
        let format = try parsed.choice("format", from: ["json", "text"], default: "text")
        guard let directory = parsed.option("scenes") else {
            throw CommandLineError.usage("--scenes DIR is required")
        }
        let names = presets.keys.sorted()
        let chosen = try parsed.choice("preset", from: names + ["all"], default: "all")
        let scenes = try findScenes(in: URL(fileURLWithPath: directory))
        guard !scenes.isEmpty else {
            throw CommandLineError.usage("no scene_*.wav with a .json beside it in \(directory)")
        }
        var reports: [StereoAssignmentReport] = []
        let byGeometry = Dictionary(grouping: scenes, by: { $0.truth.geometry })
        for preset in chosen == "all" ? names : [chosen] {
            guard let config = presets[preset] else { continue }
            for geometry in byGeometry.keys.sorted() {
                let group = byGeometry[geometry] ?? []
                var outcomes: [StereoEventOutcome] = []
                for scene in group {
                    outcomes += try StereoSceneEvaluation.evaluate(
                        audio: scene.audio, truth: scene.truth, config: config)
                }
                reports.append(
                    StereoAssignmentReport(outcomes: outcomes, preset: preset, geometry: geometry, scenes: group.count))
            }
        }
        if format == "json" {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
            try StandardOutput.print(String(decoding: try encoder.encode(Output(reports: reports)), as: UTF8.self))
        } else {
            for report in reports { try StandardOutput.print(text(report)) }
        }
    }

    private static func findScenes(in directory: URL) throws -> [(audio: URL, truth: StereoSceneTruth)] {
        guard let walker = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: nil) else {
            throw CommandLineError.usage("cannot read \(directory.path)")
        }
        var found: [(audio: URL, truth: StereoSceneTruth)] = []
        for case let url as URL in walker where url.pathExtension == "wav" && url.lastPathComponent.hasPrefix("scene_")
        {
            let truthURL = url.deletingPathExtension().appendingPathExtension("json")
            guard FileManager.default.fileExists(atPath: truthURL.path) else { continue }
            found.append((url, try StereoSceneTruth.load(from: truthURL)))
        }
        return found.sorted { $0.audio.path < $1.audio.path }
    }

    private static func text(_ report: StereoAssignmentReport) -> String {
        func percent(_ value: Double) -> String { String(format: "%.1f %%", value * 100) }
        func format(_ value: Double?, _ pattern: String) -> String {
            value.map { String(format: pattern, $0) } ?? "–"
        }
        let rows = AnalysisChannel.allCases.map { owner in
            let row = report.confusion[owner.rawValue] ?? [:]
            return "    \(owner.rawValue.padding(toLength: 10, withPad: " ", startingAt: 0)) → "
                + ["primary", "secondary", "both", "neither"].map { "\($0) \(row[$0] ?? 0)" }.joined(separator: ", ")
        }
        return """
            \(report.preset) on \(report.geometry) (\(report.scenes) scenes, \(report.events) events, \
            \(report.detected) detected, \(report.assigned) assigned)
              accuracy outside the ambiguity zone \(percent(report.accuracyOutsideZone)) of \(report.outsideZone); \
            inside the zone \(percent(report.shareInsideZone)); too weak \(percent(report.shareBelowConfidence)); \
            overall \(percent(report.overallAccuracy))
              time-difference error \(format(report.meanTimeDifferenceErrorMs, "%.3f ms")), \
            level-difference error \(format(report.meanLevelDifferenceErrorDb, "%.1f dB"))
            \(rows.joined(separator: "\n"))
            """
    }
}
