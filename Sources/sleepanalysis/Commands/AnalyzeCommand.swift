import CommandLineKit
import Foundation
import SleepAnalysis

/// `sleepanalysis analyze AUDIO …`: replays a recorded night through the SDK and prints the whole result.
///
/// The night goes through exactly the public API an application uses (`initialize`, `createFileDataSource`,
/// `startAnalysis` or the multi-channel calls, `waitUntilFinished`, `stopAnalysis`). Output: JSON (see
/// `AnalysisReport`; with `--stereo`, `{"primary": …, "secondary": …}`), CSV (epochs, then events; with
/// `--out-dir`, one file per table: `AnalysisCSV`) or text; `--report FILE` also writes the HTML night report.
/// With `--split-nights` (`NightSplitting`) each night of a multi-day sensor file is a session of its own, named by
/// its date (the JSON keys, the text headings, the report's sections).
enum AnalyzeCommand: Command {
    static let name = "analyze"
    static let summary = "analyse a recorded night (audio and/or sensor files) and print the result"
    /// What it accepts: its specification.
    static var syntax: CommandSyntax { .options(specification) }
    static let specification = ArgumentSpecification(
        options: [
            "accelerometer", "heart-rate", "activity-counts", "start", "format", "hypnogram", "store",
            "wakeup-window", "preset", CommandLineLicence.option, "storage", "pace", "out-dir", "timezone",
            NightReportFile.option, CalibrationOffsetArgument.option,
        ],
        flags: ["stereo", "quiet", "resume", StoreDirectoryArgument.noStoreFlag, "split-nights"],
        shortNames: ["f": "format", "q": "quiet", "s": "store", "o": "out-dir"],
        positionals: ["AUDIO"],
        usage: """
            usage: sleepanalysis analyze AUDIO [options]

                  AUDIO                     audio file (WAV, FLAC, OGG…; mono or stereo; any rate), or - for none
                  --accelerometer CSV       accelerometer readings: timestamp,x,y,z (seconds or ISO 8601; g or m/s²,
                                            stated in the file or detected from the median magnitude, and said on
                                            standard error)
                  --heart-rate CSV          heart rate from a wearable: timestamp,bpm
                  --activity-counts CSV     epoch actigraphy: timestamp,activity_count
                  --timezone ZONE           the IANA time zone (Europe/Stockholm) of sensor timestamps written
                                            without one (2026-12-01 23:00:00); without it they are an error
                  --start ISO8601           when the recording began (default: the audio file's modification time
                                            minus its duration; without audio, the first sensor reading when the
                                            files' timestamps are absolute, said on standard error)
                  --split-nights            AUDIO is -, the sensor files span several days: analyse each day's
                                            longest rest period (noon to noon in --timezone, else the local zone)
                                            as a night of its own, each printed, reported and stored
                  --stereo                  two sleepers, one microphone each (channel 1 primary, 2 secondary)
                  --preset NAME             channel separation with --stereo: bedSideMics (default), centeredMicArray,
                                            detectionStrengthOnly
                  --wakeup-window S/E       smart alarm window, ISO 8601 interval (e.g. 2026-12-01T06:30Z/07:00)
              -f, --format json|csv|text    output format (default text)
              -o, --out-dir DIR             with --format csv: write DIR/epochs.csv, events.csv, breathing.csv and
                                            summary.csv (statistics and score, one row), one header each, instead of
                                            printing epochs, an empty line, then events
                  --hypnogram FILE.svg      also draw the hypnogram
                  --report FILE.html        also write the night report: one self-contained HTML page (score and
                                            figures at a glance, hypnogram with events, stage probabilities,
                                            snoring, breathing rate, sound level, what staged the night); no network
                                            needed
                  --calibration-offset DB   the microphone's calibration, dB SPL = dBFS + DB (as spl): the report's
                                            sound level in dB(A) SPL; without it the level is relative, uncalibrated
              -s, --store DIR               the session store the result is saved in (default: $XDG_DATA_HOME/
                                            sleepanalysis, else ~/.local/share/sleepanalysis, which history and
                                            export read; when it cannot be written: exit 73, the result kept in the
                                            state directory and saved by the next run with this store)
                  --no-store                do not save the result
                  --api-key KEY             licence key (default $SLEEPANALYSIS_API_KEY, else a local evaluation
                                            licence with every feature)
                  --storage DIR             SDK state directory (default: the XDG directories)
                  --pace realtime|N         replay at recording speed or N times faster (default: as fast as possible;
                                            the result is the same at every pace)
                  --resume                  continue the session an earlier run left unfinished (Ctrl-C, killed,
                                            crashed) in the storage directory, on the same files; the result covers
                                            the whole night
              -q, --quiet                   no progress bar

            Ctrl-C (SIGINT) stops the analysis: the result so far is printed in the chosen format, a line on
            standard error gives the command that continues the night (the same arguments and --resume), exit 130.

            """)

    static func run(_ arguments: [String]) async throws {
        guard let parsed = try ArgumentParser.parseUnlessHelp(arguments, specification) else { return }
        let format = try parsed.choice("format", from: ["json", "csv", "text"], default: "text")
        let store = try StoreDirectoryArgument.savingDirectory(parsed)
        let outDirectory = parsed.option("out-dir").map { URL(fileURLWithPath: $0, isDirectory: true) }
        guard outDirectory == nil || format == "csv" else {
            throw CommandLineError.usage("--out-dir writes CSV tables: use it with --format csv")
        }
        // Where the files go, checked before a night is analysed for minutes.
        for option in ["hypnogram", NightReportFile.option] {
            if let path = parsed.option(option) { try OutputDestination.checkFile(path, option: option) }
        }
        if let outDirectory { try OutputDestination.checkFolder(outDirectory.path, option: "out-dir") }
        let inputs = try NightInputs(parsed)
        if parsed.flag("split-nights") {
            for other in ["stereo", "resume"] where parsed.flag(other) {
                throw CommandLineError.usage("--split-nights analyses sensor files night by night: not with --\(other)")
            }
            guard parsed.option("wakeup-window") == nil else {
                throw CommandLineError.usage("--split-nights: a smart alarm window belongs to one night")
            }
        }
        try inputs.stateAccelerometerUnit()
        let alarm = try parsed.option("wakeup-window").map {
            SmartAlarmConfig(wakeupWindow: try DateInterval(iso8601Interval: $0))
        }
        // Before the analysis starts, so that Ctrl-C never ends the process halfway.
        let interrupt = InterruptSignal()
        _ = try await CommandLineLicence.initialize(parsed)

        let progress = ProgressBar(
            total: parsed.flag("quiet") || parsed.flag("stereo") ? 0 : inputs.audioDuration, start: inputs.start)
        // The report's sound-level chart: the levels the analysis measures (not collected for two sleepers).
        let calibration = try CalibrationOffsetArgument.calibration(parsed)
        let soundLevels =
            parsed.option(NightReportFile.option) == nil ? nil : SoundLevelCollector(calibration: calibration)
        var interruption: AnalysisInterruption?
        let results: [(channel: String?, result: AnalysisResult)]
        do {
            results = try await analyse(
                parsed, inputs, alarm: alarm,
                listeners: [progress as (any AudioEventListener & Sendable)?, soundLevels].compactMap { $0 },
                interrupt: interrupt)
        } catch let stopped as AnalysisInterruption {
            interruption = stopped
            results = try await AnalysisInterruption.partialResults()
        }
        progress.finish()
        // The results are printed whatever happens to the store; a store failure ends the command afterwards. An
        // interrupted night is stored when its resumed run finishes.
        let storing =
            interruption != nil
            ? nil
            : store.map {
                ResultStoring(
                    results.map(\.result), in: $0,
                    storageDirectory: parsed.option("storage").map { URL(fileURLWithPath: $0, isDirectory: true) })
            }
        let history = storing?.history ?? []
        let reports = results.map {
            (
                channel: $0.channel,
                report: AnalysisReport(
                    result: $0.result,
                    score: SleepScoring.score(
                        result: $0.result, history: history))
            )
        }
        try write(reports, format: format, outDirectory: outDirectory, splitNights: parsed.flag("split-nights"))
        if let path = parsed.option("hypnogram") {
            let svg = HypnogramSVG.render(reports[0].report.result)
            do {
                try Data(svg.utf8).write(to: URL(fileURLWithPath: path))
            } catch {
                throw CommandLineError(
                    kind: .outputFailed, message: "cannot write \(path): \(error.localizedDescription)")
            }
        }
        if let path = parsed.option(NightReportFile.option) {
            try NightReportFile.write(
                reports, soundLevel: parsed.flag("stereo") ? nil : soundLevels?.timeline, to: path)
        }
        await SleepCycleSdk.deinitialize()
        if let interruption { throw interruption.error(arguments: arguments, results: results) }
        if let failure = storing?.failure { throw failure }
        if let error = await SleepCycleSdk.dataSourceError {
            throw CommandLineError.badData("the input ended early: \(error) (the result above covers what came before)")
        }
    }

    // MARK: - Analysis

    /// Analyses the night as the command line asks: resumed, two sleepers, or one.
    ///
    /// - Throws: `AnalysisInterruption` when a signal arrives before the input ends (the sessions still run).
    private static func analyse(
        _ parsed: ParsedArguments, _ inputs: NightInputs, alarm: SmartAlarmConfig?,
        listeners: [any AudioEventListener & Sendable], interrupt: InterruptSignal
    ) async throws -> [(channel: String?, result: AnalysisResult)] {
        let calibration = try CalibrationOffsetArgument.calibration(parsed)
        if parsed.flag("split-nights") {
            return try await analyseNights(
                inputs, calibration: calibration, listeners: listeners, interrupt: interrupt)
        } else if parsed.flag("resume") {
            return try await resume(
                inputs, stereo: parsed.flag("stereo"), alarm: alarm, listeners: listeners, interrupt: interrupt)
        } else if parsed.flag("stereo") {
            let preset = try separationPreset(parsed)
            return try await analyseStereo(
                inputs, separation: preset, alarm: alarm, calibration: calibration, interrupt: interrupt)
        }
        return [
            (
                nil,
                try await analyseOneSleeper(
                    inputs, alarm: alarm, calibration: calibration, listeners: listeners, interrupt: interrupt)
            )
        ]
    }

    private static func analyseOneSleeper(
        _ inputs: NightInputs, alarm: SmartAlarmConfig?, calibration: LevelCalibration?,
        listeners: [any AudioEventListener & Sendable], interrupt: InterruptSignal
    ) async throws -> AnalysisResult {
        let source = inputs.makeSource()
        var config = inputs.config
        config.soundLevelCalibration = calibration
        try await SleepCycleSdk.startAnalysis(
            config: config, using: source, eventListeners: listeners, smartAlarmConfig: alarm)
        if let signal = await interrupt.wait(for: source) { throw AnalysisInterruption(signal: signal) }
        return try await SleepCycleSdk.stopAnalysis()
    }

    /// Each night of a multi-day recording as a session of its own, named by its date.
    private static func analyseNights(
        _ inputs: NightInputs, calibration: LevelCalibration?, listeners: [any AudioEventListener & Sendable],
        interrupt: InterruptSignal
    ) async throws -> [(channel: String?, result: AnalysisResult)] {
        let splitting = try NightSplitting(inputs)
        defer { splitting.removeFiles() }
        splitting.announce()
        var results: [(channel: String?, result: AnalysisResult)] = []
        for night in splitting.nights {
            let result = try await analyseOneSleeper(
                night.inputs, alarm: nil, calibration: calibration, listeners: listeners, interrupt: interrupt)
            results.append((night.name, result))
        }
        return results
    }

    private static func analyseStereo(
        _ inputs: NightInputs, separation: ChannelSeparationConfig, alarm: SmartAlarmConfig?,
        calibration: LevelCalibration?, interrupt: InterruptSignal
    ) async throws -> [(channel: String?, result: AnalysisResult)] {
        let source = inputs.makeSource()
        var config = inputs.config
        config.soundLevelCalibration = calibration
        try await SleepCycleSdk.startDataSource(using: source, channelSeparationConfig: separation)
        let primary = try await SleepCycleSdk.startMultiChannelAnalysis(
            channel: .primary, config: config, smartAlarmConfig: alarm)
        let secondary = try await SleepCycleSdk.startMultiChannelAnalysis(
            channel: .secondary,
            config: SleepAnalysisConfig(useAudio: true, soundLevelCalibration: calibration))
        if let signal = await interrupt.wait(for: source) { throw AnalysisInterruption(signal: signal) }
        let primaryResult = try await SleepCycleSdk.stopAnalysis(sessionId: primary)
        let secondaryResult = try await SleepCycleSdk.stopAnalysis(sessionId: secondary)
        await SleepCycleSdk.stopDataSource()
        return [("primary", primaryResult), ("secondary", secondaryResult)]
    }

    /// Continues the sessions left in the journal on a replay of the same files, with the same options.
    ///
    /// - Throws: `CommandLineError.badData` (exit 65) when `--stereo` or `--wakeup-window` differ from the night's
    ///   (the night stays resumable); the SDK's `.invalidInput` (65) when the inputs do.
    private static func resume(
        _ inputs: NightInputs, stereo: Bool, alarm: SmartAlarmConfig?, listeners: [any AudioEventListener & Sendable],
        interrupt: InterruptSignal
    ) async throws
        -> [(channel: String?, result: AnalysisResult)]
    {
        let source = inputs.makeSource()
        let sessions: [ResumedSession]
        do {
            // Asked directly (not through isResumePossible), so that a damaged journal is reported as such.
            sessions = try await SleepCycleSdk.resumeAnalysis(using: source, eventListeners: listeners)
        } catch SleepCycleSdkError.noResumableSession {
            throw CommandLineError(
                kind: .failure, message: "no unfinished session to resume in the storage directory (see --storage)")
        }
        let differences = optionDifferences(resumed: sessions, stereo: stereo, alarm: alarm)
        if !differences.isEmpty {
            // Nothing is printed or stored: the night stays in the journal, to resume with its own options.
            _ = try? await SleepCycleSdk.interruptAnalysis()
            throw CommandLineError.badData(
                "cannot resume the unfinished night with other options: " + differences.joined(separator: "; ")
                    + ". Give the same options, or discard the night (sleepanalysis session discard)")
        }
        if let signal = await interrupt.wait(for: source) { throw AnalysisInterruption(signal: signal) }
        var results: [(channel: String?, result: AnalysisResult)] = []
        for session in sessions.sorted(by: { $0.channel == .primary && $1.channel != .primary }) {
            let result = try await SleepCycleSdk.stopAnalysis(sessionId: session.sessionId)
            results.append((sessions.count > 1 ? session.channel.rawValue : nil, result))
        }
        await SleepCycleSdk.stopDataSource()
        return results
    }

    /// How `--stereo` and `--wakeup-window` differ from the resumed night's, one phrase each.
    private static func optionDifferences(
        resumed sessions: [ResumedSession], stereo: Bool, alarm: SmartAlarmConfig?
    ) -> [String] {
        var found: [String] = []
        let twoSleepers = sessions.contains { $0.channel == .secondary }
        if twoSleepers != stereo {
            found.append(
                twoSleepers
                    ? "the night was analysed for two sleepers (--stereo), now for one"
                    : "the night was analysed for one sleeper, now for two (--stereo)")
        }
        let journaled = sessions.first { $0.channel == .primary }?.smartAlarmConfig
        if journaled != alarm {
            let window = { (config: SmartAlarmConfig?) -> String in
                guard let config else { return "none" }
                return Timestamps.iso8601(config.wakeupWindow.start) + "/" + Timestamps.iso8601(config.wakeupWindow.end)
            }
            found.append("the smart alarm window (--wakeup-window) was \(window(journaled)), now \(window(alarm))")
        }
        return found
    }

    private static func separationPreset(_ parsed: ParsedArguments) throws -> ChannelSeparationConfig {
        switch try parsed.choice(
            "preset", from: ["bedSideMics", "centeredMicArray", "detectionStrengthOnly"], default: "bedSideMics")
        {
        case "centeredMicArray": .centeredMicArray
        case "detectionStrengthOnly": .detectionStrengthOnly()
        default: .bedSideMics
        }
    }

    // MARK: - Output

    private static func write(
        _ reports: [(channel: String?, report: AnalysisReport)], format: String, outDirectory: URL?,
        splitNights: Bool
    ) throws {
        switch format {
        case "json":
            if reports.count == 1 {
                try AnalysisReport.printJSON(reports[0].report)
            } else {
                var byName: [String: AnalysisReport] = [:]
                for entry in reports { byName[entry.channel ?? "primary"] = entry.report }
                if splitNights {
                    try AnalysisReport.printJSON(NightsDocument(nights: byName))
                } else {
                    try AnalysisReport.printJSON(ChannelResultsDocument(channels: byName))
                }
            }
        case "csv":
            if let outDirectory { try AnalysisCSV.write(AnalysisCSV.tables(reports), to: outDirectory) }
            for entry in reports {
                if outDirectory == nil {
                    try StandardOutput.print(
                        AnalysisCSV.render(entry.report.result, channel: reports.count > 1 ? entry.channel : nil))
                }
                // The tables have no place for them: the input's warnings go to standard error.
                for warning in entry.report.result.warnings {
                    CommandRunner.printError("sleepanalysis analyze: warning: \(warning.message)\n")
                }
            }
        default:
            for entry in reports {
                try StandardOutput.print(
                    AnalysisText.render(entry.report.result, score: entry.report.score, title: entry.channel))
            }
        }
    }
}
