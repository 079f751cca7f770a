import Foundation
import SleepAnalysis

/// `analyze - --split-nights`: a multi-day accelerometer file (with its heart-rate file) cut into one night per
/// day, the longest rest period of each (`RestPeriodFinder`), each night's readings written to its own files in a
/// temporary folder so that each is analysed, reported and stored as a night of its own. The files are read twice
/// (the rest periods, then the nights' readings), never held whole in memory.
struct NightSplitting {
    /// One night: its name (its local start date), when it is, and its inputs.
    struct Night {
        var name: String
        var interval: DateInterval
        var inputs: NightInputs
    }

    /// The nights, in time order.
    let nights: [Night]
    /// The folder of the nights' files; removed by `removeFiles()`.
    private let folder: URL

    /// Finds the nights of `inputs` and writes their files.
    ///
    /// - Parameter inputs: The whole recording: no audio, an accelerometer file, perhaps a heart-rate file.
    /// - Throws: a usage `CommandLineError` for inputs that cannot be split, a bad-data one when there is no rest
    ///   period (`NightSplitError.noRestPeriod`); `SleepCycleSdkError.invalidInput` for an unreadable file.
    init(_ inputs: NightInputs) throws {
        guard inputs.audio == nil, inputs.activityCounts == nil, let accelerometer = inputs.accelerometer else {
            throw CommandLineError.usage(
                "--split-nights splits sensor files: give - for AUDIO and an --accelerometer file (and --heart-rate)")
        }
        let zone = inputs.sensorTimeZone ?? .current
        let intervals: [DateInterval]
        do {
            intervals = try RestPeriodFinder.nights(
                inAccelerometerFile: accelerometer, startTime: inputs.start, timeZone: zone,
                localZone: inputs.sensorTimeZone)
        } catch let error as NightSplitError {
            throw CommandLineError.badData("\(accelerometer.lastPathComponent): \(error.localizedDescription)")
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("sleepanalysis-nights-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        self.folder = folder
        let accelerometerFiles = try Self.write(
            intervals, header: "# units: g\ntimestamp,x,y,z\n", into: folder, named: "accelerometer"
        ) { emit in
            let reader = try AccelerometerCSVReader(
                url: accelerometer, startTime: inputs.start, localZone: inputs.sensorTimeZone)
            while let sample = try reader.next() {
                emit(sample.timestamp, String(format: "%.6f,%.6f,%.6f", sample.x, sample.y, sample.z))
            }
        }
        let heartRateFiles = try inputs.heartRate.map { heartRate in
            try Self.write(intervals, header: "timestamp,bpm\n", into: folder, named: "heart-rate") { emit in
                let reader = try HeartRateCSVReader(
                    url: heartRate, startTime: inputs.start, localZone: inputs.sensorTimeZone)
                while let sample = try reader.next() { emit(sample.timestamp, String(format: "%.2f", sample.bpm)) }
            }
        }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = zone
        formatter.dateFormat = "yyyy-MM-dd"
        nights = intervals.indices.map { index in
            Night(
                name: formatter.string(from: intervals[index].start), interval: intervals[index],
                inputs: inputs.night(
                    start: intervals[index].start, accelerometer: accelerometerFiles[index],
                    heartRate: heartRateFiles?[index]))
        }
    }

    /// Removes the nights' files.
    func removeFiles() { try? FileManager.default.removeItem(at: folder) }

    /// Says on standard error which nights were found.
    func announce() {
        for night in nights {
            CommandRunner.printError(
                ("sleepanalysis analyze: night \(night.name): rest from \(Timestamps.iso8601(night.interval.start))"
                    + " to \(Timestamps.iso8601(night.interval.end))\n"))
        }
    }

    /// Writes one CSV file per interval with the rows `read` emits inside it, timestamps in seconds from the
    /// interval's start (its session's start).
    private static func write(
        _ intervals: [DateInterval], header: String, into folder: URL, named name: String,
        read: ((Date, String) -> Void) throws -> Void
    ) throws -> [URL] {
        let files = intervals.indices.map { folder.appendingPathComponent("\(name)-\($0 + 1).csv") }
        var texts = Array(repeating: header, count: intervals.count)
        do {
            try read { time, values in
                guard let index = intervals.firstIndex(where: { $0.contains(time) }) else { return }
                let seconds = time.timeIntervalSince(intervals[index].start)
                texts[index] += String(format: "%.3f,", seconds) + values + "\n"
            }
        } catch let error as CSVError {
            throw error.sdkError
        }
        for (file, text) in zip(files, texts) { try Data(text.utf8).write(to: file) }
        return files
    }
}
