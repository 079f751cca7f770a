import Foundation
import SleepAnalysis

/// `sleepanalysis analyze AUDIO …`: replays a recorded night through the SDK and prints the whole result.
///
/// The night goes through exactly the public API an application uses (`initialize`, `createFileDataSource`,
/// `startAnalysis` or the multi-channel calls, `waitUntilFinished`, `stopAnalysis`). Output: JSON (see
/// `AnalysisReport`; with `--stereo`, `{"primary": …, "secondary": …}`), CSV (epochs, then events) or text.
enum AnalyzeCommand: Command {
    static let name = "analyze"
    static let summary = "analyse a recorded night (audio and/or sensor files) and print the result"
    static let specification = ArgumentSpecification(
        options: [
            "accelerometer", "heart-rate", "activity-counts", "start", "format", "hypnogram", "store",
            "wakeup-window", "preset", CommandLineLicence.option, "storage", "pace",
        ],
        flags: ["stereo", "quiet", "resume"],
        positionals: ["AUDIO"],
        usage: """
            usage: sleepanalysis analyze AUDIO [options]

              AUDIO                     audio file (WAV, FLAC, OGG…; mono or stereo; any rate), or - for none
              --accelerometer CSV       accelerometer readings: timestamp,x,y,z (seconds or ISO 8601; g or m/s²)
              --heart-rate CSV          heart rate from a wearable: timestamp,bpm
              --activity-counts CSV     epoch actigraphy: timestamp,activity_count
              --start ISO8601           when the recording began (default: the audio file's modification time
                                        minus its duration)
              --stereo                  two sleepers, one microphone each (channel 1 primary, 2 secondary)
              --preset NAME             channel separation with --stereo: bedSideMics (default), centeredMicArray,
                                        detectionStrengthOnly
              --wakeup-window S/E       smart alarm window, ISO 8601 interval (e.g. 2026-12-01T06:30Z/07:00)
              --format json|csv|text    output format (default text)
              --hypnogram FILE.svg      also draw the hypnogram
              --store DIR               also save the result in the session store at DIR (when it cannot be
                                        written: exit 73, the result kept in the state directory and saved by
                                        the next run with this --store)
              --api-key KEY             licence key (default $SLEEPANALYSIS_API_KEY, else a local evaluation
                                        licence with every feature)
              --storage DIR             SDK state directory (default: the XDG directories)
              --pace realtime|N         replay at recording speed or N times faster (default: as fast as possible;
                                        the result is the same at every pace)
              --resume                  continue the session an earlier run left unfinished (killed, crashed) in
                                        the storage directory, on the same files; the result covers the whole night
              --quiet                   no progress bar

            """)

    static func run(_ arguments: [String]) async throws {
        let parsed = try ArgumentParser.parse(arguments, specification)
        if parsed.flag("help") {
            print(specification.usage, terminator: "")
            return
        }
        let format = try parsed.choice("format", from: ["json", "csv", "text"], default: "text")
        let inputs = try NightInputs(parsed)
        let alarm = try parsed.option("wakeup-window").map {
            SmartAlarmConfig(wakeupWindow: try DateInterval(iso8601Interval: $0))
        }
        _ = try await CommandLineLicence.initialize(parsed)

        let results: [(channel: String?, result: AnalysisResult)]
        if parsed.flag("resume") {
            let progress = ProgressBar(total: parsed.flag("quiet") ? 0 : inputs.audioDuration, start: inputs.start)
            results = try await resume(inputs, progress: progress)
            progress.finish()
        } else if parsed.flag("stereo") {
            let preset = try separationPreset(parsed)
            results = try await analyseStereo(inputs, separation: preset, alarm: alarm)
        } else {
            let progress = ProgressBar(total: parsed.flag("quiet") ? 0 : inputs.audioDuration, start: inputs.start)
            results = [(nil, try await analyseOneSleeper(inputs, alarm: alarm, progress: progress))]
            progress.finish()
        }
        // The results are printed whatever happens to the store; a store failure ends the command afterwards.
        let storing = parsed.option(StoreDirectoryArgument.option).map {
            ResultStoring(
                results.map(\.result), in: URL(fileURLWithPath: $0, isDirectory: true),
                storageDirectory: parsed.option("storage").map { URL(fileURLWithPath: $0, isDirectory: true) })
        }
        let history = storing?.history ?? []
        let reports = results.map {
            (
                channel: $0.channel,
                report: AnalysisReport(
                    result: $0.result,
                    score: SleepScoring.compute(
                        result: $0.result, history: history))
            )
        }
        try write(reports, format: format)
        if let path = parsed.option("hypnogram") {
            let svg = HypnogramSVG.render(reports[0].report.result)
            do {
                try Data(svg.utf8).write(to: URL(fileURLWithPath: path))
            } catch {
                throw CommandLineError(kind: .failure, message: "cannot write \(path): \(error.localizedDescription)")
            }
        }
        await SleepCycleSdk.deinitialize()
        if let failure = storing?.failure { throw failure }
        if let error = await SleepCycleSdk.dataSourceError {
            throw CommandLineError.badData("the input ended early: \(error) (the result above covers what came before)")
        }
    }

    // MARK: - Analysis

    private static func analyseOneSleeper(
        _ inputs: NightInputs, alarm: SmartAlarmConfig?, progress: ProgressBar
    ) async throws -> AnalysisResult {
        let source = inputs.makeSource()
        try await SleepCycleSdk.startAnalysis(
            config: inputs.config, using: source, eventListeners: [progress], smartAlarmConfig: alarm)
        await source.waitUntilFinished()
        return try await SleepCycleSdk.stopAnalysis()
    }

    private static func analyseStereo(
        _ inputs: NightInputs, separation: ChannelSeparationConfig, alarm: SmartAlarmConfig?
    ) async throws -> [(channel: String?, result: AnalysisResult)] {
        let source = inputs.makeSource()
        try await SleepCycleSdk.startDataSource(using: source, channelSeparationConfig: separation)
        let primary = try await SleepCycleSdk.startMultiChannelAnalysis(
            channel: .primary, config: inputs.config, smartAlarmConfig: alarm)
        let secondary = try await SleepCycleSdk.startMultiChannelAnalysis(
            channel: .secondary, config: SleepAnalysisConfig(useAudio: true))
        await source.waitUntilFinished()
        let primaryResult = try await SleepCycleSdk.stopAnalysis(sessionId: primary)
        let secondaryResult = try await SleepCycleSdk.stopAnalysis(sessionId: secondary)
        await SleepCycleSdk.stopDataSource()
        return [("primary", primaryResult), ("secondary", secondaryResult)]
    }

    /// Continues the sessions left in the journal on a replay of the same files.
    private static func resume(
        _ inputs: NightInputs, progress: ProgressBar
    ) async throws
        -> [(channel: String?, result: AnalysisResult)]
    {
        let source = inputs.makeSource()
        let sessions: [ResumedSession]
        do {
            // Asked directly (not through isResumePossible), so that a damaged journal is reported as such.
            sessions = try await SleepCycleSdk.resumeAnalysis(using: source, eventListeners: [progress])
        } catch SleepCycleSdkError.noResumableSession {
            throw CommandLineError(
                kind: .failure, message: "no unfinished session to resume in the storage directory (see --storage)")
        }
        await source.waitUntilFinished()
        var results: [(channel: String?, result: AnalysisResult)] = []
        for session in sessions.sorted(by: { $0.channel == .primary && $1.channel != .primary }) {
            let result = try await SleepCycleSdk.stopAnalysis(sessionId: session.sessionId)
            results.append((sessions.count > 1 ? session.channel.rawValue : nil, result))
        }
        await SleepCycleSdk.stopDataSource()
        return results
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

    private static func write(_ reports: [(channel: String?, report: AnalysisReport)], format: String) throws {
        switch format {
        case "json":
            let encoder = AnalysisReport.makeEncoder()
            let data: Data
            if reports.count == 1 {
                data = try encoder.encode(reports[0].report)
            } else {
                var byChannel: [String: AnalysisReport] = [:]
                for entry in reports { byChannel[entry.channel ?? "primary"] = entry.report }
                data = try encoder.encode(byChannel)
            }
            FileHandle.standardOutput.write(data)
            FileHandle.standardOutput.write(Data("\n".utf8))
        case "csv":
            for entry in reports {
                print(AnalysisCSV.render(entry.report.result, channel: reports.count > 1 ? entry.channel : nil))
                // The tables have no place for them: the input's warnings go to standard error.
                for warning in entry.report.result.warnings {
                    FileHandle.standardError.write(Data("sleepanalysis analyze: warning: \(warning.message)\n".utf8))
                }
            }
        default:
            for entry in reports {
                print(AnalysisText.render(entry.report.result, score: entry.report.score, title: entry.channel))
            }
        }
    }
}

/// The files of a night to analyse, and what follows from them.
struct NightInputs {
    let audio: URL?
    let accelerometer: URL?
    let heartRate: URL?
    let activityCounts: URL?
    let start: Date
    /// Seconds of audio (0 without audio).
    let audioDuration: TimeInterval
    /// How fast to replay.
    let pace: ReplayPace

    init(_ parsed: ParsedArguments) throws {
        let audioPath = parsed.positionals[0]
        audio = audioPath == "-" ? nil : URL(fileURLWithPath: audioPath)
        accelerometer = parsed.option("accelerometer").map { URL(fileURLWithPath: $0) }
        heartRate = parsed.option("heart-rate").map { URL(fileURLWithPath: $0) }
        activityCounts = parsed.option("activity-counts").map { URL(fileURLWithPath: $0) }
        guard audio != nil || accelerometer != nil || heartRate != nil || activityCounts != nil else {
            throw CommandLineError.usage("give an audio file or at least one sensor file", usage: nil)
        }
        audioDuration = audio.flatMap { FileDataSource(audio: $0, accelerometer: nil).audioDuration } ?? 0
        pace = try ReplayPaceArgument.pace(parsed)
        if let text = parsed.option("start") {
            guard let date = ISO8601Parsing.date(text) else {
                throw CommandLineError.usage("--start must be an ISO 8601 date and time, not '\(text)'")
            }
            start = date
        } else if let audio,
            let modified = try? FileManager.default.attributesOfItem(atPath: audio.path)[.modificationDate] as? Date
        {
            start = modified.addingTimeInterval(-audioDuration)
        } else {
            start = Date()
        }
    }

    /// The sensors the session uses.
    var config: SleepAnalysisConfig {
        SleepAnalysisConfig(
            useAudio: audio != nil, useAccelerometer: accelerometer != nil || activityCounts != nil,
            useHeartRate: heartRate != nil)
    }

    /// A replay of the files, as fast as possible.
    func makeSource() -> any DataSource {
        SleepCycleSdk.createFileDataSource(
            audio: audio, accelerometer: accelerometer, heartRate: heartRate, activityCounts: activityCounts,
            startTime: start, pace: pace)
    }
}

/// Parses ISO 8601 instants given on the command line.
enum ISO8601Parsing {
    /// `2026-12-01T23:00:00Z`, with or without fractional seconds, `Z` or an offset.
    static func date(_ text: String) -> Date? {
        let plain = ISO8601DateFormatter()
        if let date = plain.date(from: text) { return date }
        let fractional = ISO8601DateFormatter()
        fractional.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return fractional.date(from: text)
    }
}
