import CommandLineKit
import Foundation
import SleepAnalysis

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
    /// The zone of sensor timestamps written without one (`--timezone`).
    let sensorTimeZone: TimeZone?

    init(_ parsed: ParsedArguments) throws {
        let audioPath = parsed.positionals[0]
        audio = audioPath == "-" ? nil : URL(fileURLWithPath: audioPath)
        accelerometer = parsed.option("accelerometer").map { URL(fileURLWithPath: $0) }
        heartRate = parsed.option("heart-rate").map { URL(fileURLWithPath: $0) }
        activityCounts = parsed.option("activity-counts").map { URL(fileURLWithPath: $0) }
        guard audio != nil || accelerometer != nil || heartRate != nil || activityCounts != nil else {
            throw CommandLineError.usage("give an audio file or at least one sensor file", usage: nil)
        }
        sensorTimeZone = try parsed.option("timezone").map { name in
            guard let zone = TimeZone(identifier: name) else {
                throw CommandLineError.usage(
                    "--timezone: '\(name)' is not an IANA time zone (such as Europe/Stockholm)")
            }
            return zone
        }
        let probe = audio.flatMap { try? AudioFileReader(url: $0) }
        audioDuration = probe.flatMap { probe in probe.knownFrameCount.map { Double($0) / probe.sampleRate } } ?? 0
        pace = try ReplayPaceArgument.pace(parsed)
        if let text = parsed.option("start") {
            guard let date = ISO8601DateTimeParser(syntax: .timestamp).date(from: text) else {
                throw CommandLineError.usage("--start must be an ISO 8601 date and time, not '\(text)'")
            }
            start = date
        } else if let audio,
            let modified = try? FileManager.default.attributesOfItem(atPath: audio.path)[.modificationDate] as? Date
        {
            start = modified.addingTimeInterval(-audioDuration)
            if let probe, probe.knownFrameCount == nil {
                // A stream written to a pipe does not say its length: the start cannot be worked back from its end.
                CommandRunner.printError(
                    "sleepanalysis analyze: \(audio.lastPathComponent) does not say how long it is: the night starts "
                        + "at its modification time, \(Timestamps.iso8601(start)); give --start for the real start\n")
            }
        } else if audio == nil,
            let first = Self.firstAbsoluteReading(of: [accelerometer, heartRate, activityCounts], in: sensorTimeZone)
        {
            // Sensor files alone, with times of their own: the night starts at the first reading, not now.
            start = first.time
            CommandRunner.printError(
                ("sleepanalysis analyze: no --start: the night starts at the first sensor reading, "
                    + "\(Timestamps.iso8601(first.time)) (\(first.file.lastPathComponent))\n"))
        } else {
            start = Date()
        }
    }

    /// The earliest first reading of the sensor files whose timestamps are absolute (epoch seconds or ISO 8601),
    /// and its file; nil when every file counts from the start (relative seconds). Unreadable files are left to
    /// the analysis to report.
    private static func firstAbsoluteReading(of files: [URL?], in zone: TimeZone?) -> (time: Date, file: URL)? {
        files.compactMap { file -> (time: Date, file: URL)? in
            guard let file, let time = try? SensorCSVFirstReading.absoluteTime(of: file, localZone: zone) else {
                return nil
            }
            return (time, file)
        }.min { $0.time < $1.time }
    }

    private init(
        audio: URL?, accelerometer: URL?, heartRate: URL?, activityCounts: URL?, start: Date,
        audioDuration: TimeInterval, pace: ReplayPace, sensorTimeZone: TimeZone?
    ) {
        self.audio = audio
        self.accelerometer = accelerometer
        self.heartRate = heartRate
        self.activityCounts = activityCounts
        self.start = start
        self.audioDuration = audioDuration
        self.pace = pace
        self.sensorTimeZone = sensorTimeZone
    }

    /// One night of a split recording (`NightSplitting`): its own sensor files, starting at `start`.
    func night(start: Date, accelerometer: URL, heartRate: URL?) -> NightInputs {
        NightInputs(
            audio: nil, accelerometer: accelerometer, heartRate: heartRate, activityCounts: nil, start: start,
            audioDuration: 0, pace: pace, sensorTimeZone: sensorTimeZone)
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
            startTime: start, pace: pace, sensorTimeZone: sensorTimeZone)
    }

    /// Says on standard error which unit the accelerometer file is read in and how that was decided.
    ///
    /// - Throws: `SleepCycleSdkError.invalidInput` when the file cannot be read.
    func stateAccelerometerUnit() throws {
        guard let accelerometer else { return }
        let report = try AccelerometerUnitReport.of(file: accelerometer, startTime: start, localZone: sensorTimeZone)
        CommandRunner.printError(
            "sleepanalysis analyze: \(accelerometer.lastPathComponent): accelerometer in \(report)\n")
    }
}
