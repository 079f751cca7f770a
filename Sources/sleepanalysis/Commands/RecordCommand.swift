import CommandLineKit
import Foundation
import SleepAnalysis

/// `sleepanalysis record [--device NAME] [--duration D] [--out FILE]`: live analysis from an ALSA device.
///
/// Events, breathing rates, stages and audio-health changes are printed as they come (one line each, on standard
/// error); at the end (the duration elapsed, or Ctrl-C) the whole result is printed like `analyze` prints it.
/// With `--out`, the analysed audio (16 kHz mono) is also written to FILE (WAV or FLAC by its extension); with
/// `--report`, the HTML night report. Like `analyze`, it saves the night in the session store (the default one, or
/// `--store DIR`) unless `--no-store` is given.
enum RecordCommand: Command {
    static let name = "record"
    static let summary = "analyse live from an ALSA microphone"
    /// What it accepts: its specification.
    static var syntax: CommandSyntax { .options(specification) }
    static let specification = ArgumentSpecification(
        options: [
            "device", "duration", "out", "format", "store", CommandLineLicence.option, "storage",
            NightReportFile.option, CalibrationOffsetArgument.option,
        ],
        flags: ["list-devices", StoreDirectoryArgument.noStoreFlag],
        shortNames: ["d": "device", "o": "out", "f": "format", "s": "store"],
        positionals: [],
        usage: """
            usage: sleepanalysis record [--device NAME] [--duration D] [--out FILE] [--format json|csv|text]
                   sleepanalysis record --list-devices

              -d, --device NAME            ALSA device (default: default; see --list-devices)
                  --list-devices           list the capture devices (the names --device takes) and exit
                  --duration D             stop after D: seconds, or with a unit (90s, 45m, 8h); default: until Ctrl-C
              -o, --out FILE               also write the analysed audio (16 kHz mono) to FILE (.wav or .flac)
              -f, --format json|csv|text   output format of the final result (default text)
                  --report FILE.html       also write the night report (one self-contained HTML page)
                  --calibration-offset DB  the microphone's calibration, dB SPL = dBFS + DB (as spl): sound levels
                                           in dB(A) SPL; without it they are relative, uncalibrated
              -s, --store DIR              save the result in the session store at DIR (default
                                           $XDG_DATA_HOME/sleepanalysis, else ~/.local/share/sleepanalysis)
                  --no-store               do not save the result
                  --api-key KEY            licence key (default $SLEEPANALYSIS_API_KEY, else a local evaluation licence)
                  --storage DIR            SDK state directory (default: the XDG directories)

            """)

    static func run(_ arguments: [String]) async throws {
        guard let parsed = try ArgumentParser.parseUnlessHelp(arguments, specification) else { return }
        if parsed.flag("list-devices") { return try listDevices() }
        let format = try parsed.choice("format", from: ["json", "csv", "text"], default: "text")
        let duration = try parsed.option("duration").map(parseDuration)
        let calibration = try CalibrationOffsetArgument.calibration(parsed)
        let store = try StoreDirectoryArgument.savingDirectory(parsed)
        // The report is written when the recording ends: its destination is checked before the night begins.
        if let path = parsed.option(NightReportFile.option) {
            try OutputDestination.checkFile(path, option: NightReportFile.option)
        }
        _ = try await CommandLineLicence.initialize(parsed)
        let source = LiveDataSource(device: parsed.option("device") ?? "default", maximumDuration: duration)
        let recorder = try parsed.option("out").map { try AudioRecorder(path: $0) }
        let soundLevels =
            parsed.option(NightReportFile.option) == nil ? nil : SoundLevelCollector(calibration: calibration)
        let listeners: [any AudioEventListener & Sendable] = [
            recorder as (any AudioEventListener & Sendable)?, soundLevels,
        ].compactMap { $0 }
        let live = Task { await printLiveUpdates() }
        let interrupt = InterruptSignal()
        try await SleepCycleSdk.startAnalysis(
            config: SleepAnalysisConfig(useAudio: true, soundLevelCalibration: calibration), using: source,
            eventListeners: listeners)
        CommandRunner.printError("recording from \(parsed.option("device") ?? "default")…\n")
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await source.waitUntilFinished() }
            group.addTask { _ = await interrupt.wait() }
            await group.next()
            group.cancelAll()
        }
        let result = try await SleepCycleSdk.stopAnalysis()
        live.cancel()
        // A recording that could not be written fails the command after the result is printed and stored.
        let recordingFailure: (any Error)?
        do {
            try recorder?.close()
            recordingFailure = nil
        } catch {
            recordingFailure = error
        }
        let storing = store.map {
            ResultStoring(
                [result], in: $0,
                storageDirectory: parsed.option("storage").map { URL(fileURLWithPath: $0, isDirectory: true) })
        }
        let report = AnalysisReport(result: result, score: SleepScoring.score(result: result))
        switch format {
        case "json":
            try AnalysisReport.printJSON(report)
        case "csv": try StandardOutput.print(AnalysisCSV.render(result))
        default: try StandardOutput.print(AnalysisText.render(result, score: report.score))
        }
        if let path = parsed.option(NightReportFile.option) {
            try NightReportFile.write([(nil, report)], soundLevel: soundLevels?.timeline, to: path)
        }
        let error = await SleepCycleSdk.dataSourceError
        await SleepCycleSdk.deinitialize()
        if let recordingFailure { throw recordingFailure }
        if let failure = storing?.failure { throw failure }
        if let error { throw CommandLineError(kind: .failure, message: "capture ended: \(error)") }
    }

    /// Prints one line per ALSA capture device (the name for `--device`, then what it is), or says there is none.
    private static func listDevices() throws {
        let devices = AudioCaptureDevice.all()
        guard !devices.isEmpty else {
            return try StandardOutput.print("no capture devices (no sound card with a microphone input)")
        }
        let width = devices.map(\.name.count).max() ?? 0
        for device in devices {
            try StandardOutput.print(
                device.name.padding(toLength: width + 2, withPad: " ", startingAt: 0) + device.description)
        }
    }

    /// `90`, `90s`, `45m`, `8h` → seconds.
    static func parseDuration(_ text: String) throws -> TimeInterval {
        let units: [Character: Double] = ["s": 1, "m": 60, "h": 3600]
        var number = Substring(text)
        var scale = 1.0
        if let last = text.last, let unit = units[last] {
            number = text.dropLast()
            scale = unit
        }
        guard let value = Double(number), value > 0, value.isFinite else {
            throw CommandLineError.usage("--duration takes a positive number of seconds (or 45m, 8h), not '\(text)'")
        }
        return value * scale
    }

    private static func printLiveUpdates() async {
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                for await events in await SleepCycleSdk.eventStream {
                    for event in events {
                        log(
                            "event \(event.type.rawValue) \(Timestamps.iso8601(event.interval.start)) "
                                + String(format: "%.1f s p=%.2f", event.interval.duration, event.probability))
                    }
                }
            }
            group.addTask {
                for await rate in await SleepCycleSdk.breathingRateStream {
                    log(String(format: "breathing %.1f /min (confidence %.2f)", rate.bpm, rate.confidence))
                }
            }
            group.addTask {
                for await prediction in await SleepCycleSdk.sleepStageStream {
                    log("stage \(prediction.stage.rawValue) \(Timestamps.iso8601(prediction.interval.start))")
                }
            }
            group.addTask {
                for await update in await SleepCycleSdk.audioHealthStream {
                    log("audio \(update.status.rawValue)")
                }
            }
        }
    }

    private static func log(_ line: String) {
        CommandRunner.printError((line + "\n"))
    }
}

/// Writes every analysed batch to an audio file.
final class AudioRecorder: AudioEventListener, @unchecked Sendable {
    // Called on the analysis thread only, then closed after the session stopped.
    private let file: AudioFileOutput

    init(path: String) throws {
        file = try AudioFileOutput(url: URL(fileURLWithPath: path), sampleRate: 16_000)
    }

    func onAudioAnalysisBatchCompleted(
        sessionId: UUID, audioSamples: [Float], audioSampleRate: Int, audioStartTime: Date, audioEndTime: Date,
        audioProbability: [EventType: Float], eventsStarted: [EventStartedInfo], eventsEnded: [EventEndedInfo],
        dbSpl: [Float]
    ) {
        // The first failure is kept, and reported when the recording is closed: the analysis goes on meanwhile.
        guard failure == nil else { return }
        do {
            try file.write(audioSamples)
        } catch {
            failure = error
        }
    }

    /// The first write that failed, if any.
    private var failure: (any Error)?

    /// Closes the file.
    ///
    /// - Throws: `CommandLineError` of kind `.outputFailed` (exit 74) when a write or the close failed.
    func close() throws {
        do {
            if let failure { throw failure }
            try file.close()
        } catch {
            throw CommandLineError(
                kind: .outputFailed, message: "cannot write the recording: \(error.localizedDescription)")
        }
    }
}
