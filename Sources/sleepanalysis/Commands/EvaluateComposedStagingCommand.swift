import CommandLineKit
import Foundation
import SleepAnalysis
import SleepAnalysisEvaluation

/// `sleepanalysis evaluate composed-staging --hypnograms DIR --clips DIR …`: every sensor staging mode through the
/// public SDK on composed nights, scored against the real Sleep-EDF hypnograms they were composed from.
///
/// Each night: the first `--hours` from `--lead-minutes` (30) before the hypnogram's sleep onset; sounds and body movements
/// placed epoch by epoch by `ComposedNightRules` (labelled clips over a quiet room tone, and a phone-on-mattress
/// accelerometer), written to a temporary folder, analysed once per mode (`startAnalysis`, the replay to its end,
/// `stopAnalysis`), then deleted. JSON output: `ComposedStagingEvaluation`, keys sorted, NaN as "nan". Composed
/// nights test plausibility; they are not validation on real nights.
enum EvaluateComposedStagingCommand {
    static let specification = ArgumentSpecification(
        options: [
            "hypnograms", "clips", "nights", "names", "hours", "lead-minutes", "modes", "seed", "band-limit", "keep",
            "format",
            CommandLineLicence.option,
        ],
        shortNames: ["f": "format"],
        usage: """
            usage: sleepanalysis evaluate composed-staging --hypnograms DIR --clips DIR [--nights N] [--hours H]
                                                           [--modes LIST] [--seed N] [--band-limit 8k|4k|opus]
                                                           [--format json|text]

                  --hypnograms DIR     Sleep-EDF epoch CSVs (shared/data/staging/sleepedf_hypnograms/epochs)
                  --clips DIR          labelled clips with MANIFEST.tsv (shared/data/audio)
                  --nights N           the first N hypnograms by name (default: all)
                  --names LIST         only these hypnograms (SC4011E0,SC4012E0)
                  --hours H            hours per night (default 3.5) …
                  --lead-minutes M     … from M minutes before the hypnogram's sleep onset (default 30)
                  --modes LIST         sound, accelerometer, soundAndAccelerometer (default: all, comma-separated)
                  --seed N             the composition's seed (default 1; night i uses N + i)
                  --band-limit KIND    put the audio through 8k (an 8-kHz recording), 4k (a 4-kHz low-pass) or
                                       opus (Ogg Opus at 12 kbit/s), as a telephone-band microphone would deliver it
                  --keep DIR           keep each composed night there (NAME.flac, NAME.csv accelerometer)
              -f, --format json|text   output format (default text)

            """)

    static func run(_ arguments: [String]) async throws {
        guard let parsed = try ArgumentParser.parseUnlessHelp(arguments, specification) else { return }
        let format = try parsed.choice("format", from: ["json", "text"], default: "text")
        guard let hypnograms = parsed.option("hypnograms"), let clipsRoot = parsed.option("clips") else {
            throw CommandLineError.usage("--hypnograms DIR and --clips DIR are required")
        }
        let hours = try positive(parsed, "hours", default: 3.5)
        let lead = try positive(parsed, "lead-minutes", default: 30)
        let seed = UInt64(try positive(parsed, "seed", default: 1))
        let bandLimit = try parsed.option("band-limit").map { name in
            guard let limit = EventBandLimit(rawValue: name) else {
                throw CommandLineError.usage("--band-limit must be 8k, 4k or opus, not '\(name)'")
            }
            return limit
        }
        let modes = try (parsed.option("modes")?.split(separator: ",").map(String.init) ?? []).map { name in
            guard let mode = ComposedStagingEvaluation.Inputs(rawValue: name) else {
                throw CommandLineError.usage("--modes: unknown mode '\(name)'")
            }
            return mode
        }
        var files = try SleepEDFHypnogram.files(in: URL(fileURLWithPath: hypnograms))
        if let names = parsed.option("names")?.split(separator: ",").map(String.init) {
            let wanted = Set(names)
            files = files.filter { wanted.contains($0.deletingPathExtension().lastPathComponent) }
            guard files.count == wanted.count else {
                throw CommandLineError.usage("--names: no hypnogram for some of \(names)")
            }
        }
        if parsed.option("nights") != nil {
            files = Array(files.prefix(Int(try positive(parsed, "nights", default: 1))))
        }
        let root = URL(fileURLWithPath: clipsRoot)
        let clips = try EventClipManifest(manifest: root.appendingPathComponent("MANIFEST.tsv"), root: root)
        let rules = ComposedNightRules()
        let chosen = modes.isEmpty ? ComposedStagingEvaluation.Inputs.allCases : modes

        let work = FileManager.default.temporaryDirectory.appendingPathComponent("composed-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        let keep = parsed.option("keep").map { URL(fileURLWithPath: $0, isDirectory: true) }
        if let keep { try FileManager.default.createDirectory(at: keep, withIntermediateDirectories: true) }
        var licensed = parsed
        licensed.options["storage"] = work.appendingPathComponent("state").path
        _ = try await CommandLineLicence.initialize(licensed)
        var outcomes: [ComposedStagingEvaluation.Inputs: [ComposedNightOutcome]] = [:]
        for (index, file) in files.enumerated() {
            let hypnogram = try SleepEDFHypnogram(url: file)
            guard let stages = hypnogram.excerpt(hours: hours, leadMinutes: lead) else { continue }
            let plan = try ComposedNightPlan(stages: stages, clips: clips, rules: rules, seed: seed + UInt64(index))
            let folder = keep ?? work
            let audio = folder.appendingPathComponent("\(hypnogram.name).flac")
            let accelerometer = folder.appendingPathComponent("\(hypnogram.name).csv")
            try ComposedNightWriter.writeAudio(
                plan, rules: rules, to: audio, seed: seed + UInt64(index), bandLimit: bandLimit)
            if chosen.contains(where: \.usesAccelerometer) {
                try ComposedNightWriter.writeAccelerometer(
                    plan, rules: rules, to: accelerometer, seed: seed + UInt64(index))
            }
            for mode in chosen {
                let start = Date(timeIntervalSince1970: 1_790_000_000)
                let source = SleepCycleSdk.createFileDataSource(
                    audio: mode.usesAudio ? audio : nil, accelerometer: mode.usesAccelerometer ? accelerometer : nil,
                    startTime: start)
                try await SleepCycleSdk.startAnalysis(
                    config: SleepAnalysisConfig(useAudio: mode.usesAudio, useAccelerometer: mode.usesAccelerometer),
                    using: source)
                await source.waitUntilFinished()
                let result = try await SleepCycleSdk.stopAnalysis()
                outcomes[mode, default: []].append(
                    ComposedNightOutcome(night: hypnogram.name, plan: plan, result: result, start: start))
            }
            if keep == nil {
                for file in [audio, accelerometer] { try? FileManager.default.removeItem(at: file) }
            }
        }
        await SleepCycleSdk.deinitialize()
        let evaluation = ComposedStagingEvaluation(
            hours: hours,
            modes: chosen.map { ComposedStagingEvaluation.Mode(inputs: $0, nights: outcomes[$0] ?? []) },
            bandLimit: bandLimit)
        if format == "json" {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
            encoder.nonConformingFloatEncodingStrategy = .convertToString(
                positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
            try StandardOutput.print(String(decoding: try encoder.encode(evaluation), as: UTF8.self))
        } else {
            try StandardOutput.print(text(evaluation))
        }
    }

    private static func positive(_ parsed: ParsedArguments, _ name: String, default value: Double) throws -> Double {
        guard let text = parsed.option(name) else { return value }
        guard let number = Double(text), number > 0, number.isFinite else {
            throw CommandLineError.usage("--\(name) must be a positive number, not '\(text)'")
        }
        return number
    }

    private static func minutes(_ value: Double?) -> String {
        value.map { String(format: "%.1f", $0) } ?? "none"
    }

    private static func text(_ evaluation: ComposedStagingEvaluation) -> String {
        var lines = [
            "composed nights (\(evaluation.hours) h each, audio \(evaluation.audio); plausibility, not validation); "
                + "heart rate: " + evaluation.heartRate
        ]
        for mode in evaluation.modes {
            let w = mode.wholeNight
            let r = mode.realTime
            lines.append(
                String(
                    format: "%@ (%d nights): whole night 4-class κ %.3f, sleep/wake κ %.3f, wake spec. %.3f | "
                        + "real time 4-class κ %.3f, sleep/wake κ %.3f, wake spec. %.3f | deep ≤15 min after onset: "
                        + "%d / %d nights (not in the hypnogram: %d / %d; hypnograms: %d) | snoring staged asleep %.2f | "
                        + "moving wake staged awake %.2f | band-limited audio warned on %d nights",
                    mode.inputs.rawValue, mode.nights.count, w.fourClass.kappa, w.sleepWake.kappa,
                    w.sleepWake.wakeSpecificity, r.fourClass.kappa, r.sleepWake.kappa, r.sleepWake.wakeSpecificity,
                    mode.deepWithin15MinutesNights["wholeNight"] ?? 0, mode.deepWithin15MinutesNights["realTime"] ?? 0,
                    mode.deepWithin15MinutesUnscoredNights["wholeNight"] ?? 0,
                    mode.deepWithin15MinutesUnscoredNights["realTime"] ?? 0, mode.scoredDeepWithin15MinutesNights,
                    mode.snoringStagedAsleep ?? .nan, mode.movingWakeStagedAwake ?? .nan, mode.bandLimitedAudioNights))
            for night in mode.nights {
                lines.append(
                    String(
                        format: "  %@ %@: 4-class κ %.3f, sleep/wake κ %.3f, wake spec. %.3f, first deep %@ min after "
                            + "onset (hypnogram %@)",
                        night.night, night.stagingBasis ?? "-", night.wholeNight.metrics.fourClass.kappa,
                        night.wholeNight.metrics.sleepWake.kappa, night.wholeNight.metrics.sleepWake.wakeSpecificity,
                        minutes(night.wholeNight.firstDeepMinutesAfterOnset),
                        minutes(night.scoredFirstDeepMinutesAfterOnset)))
            }
        }
        return lines.joined(separator: "\n")
    }
}
