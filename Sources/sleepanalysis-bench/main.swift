// sleepanalysis-bench: the audio front end's throughput (multiple of real time) and peak memory on a long night.
//
// swift run -c release sleepanalysis-bench [--hours 8] [--rates 16000,44100] [--format wav|flac]
//                                          [--input FILE] [--dir /tmp] [--stages read,digest,resample,frontEnd]
//                                          [--block FRAMES] [--regenerate] [--accelerometer CSV]
// swift run -c release sleepanalysis-bench events [--hours 1 | --audio FILE] [--model FILE]   (the audio events engine)
// swift run -c release sleepanalysis-bench pipeline [--hours 1] (a whole night through the SDK)
// swift run -c release sleepanalysis-bench vitals [--hours 1]   (breathing rate and audio health)
// swift run -c release sleepanalysis-bench profile [--input FILE | --hours 1] (CPU per stage and engine)
// swift run -c release sleepanalysis-bench live [--seconds 60] [--rate 48000] [--channels 2]  (live, at the recorded pace)
// swift run -c release sleepanalysis-bench peer [--input FILE | --hours 1 --rate 44100 --channels 2] [--stereo]
//                                               [--accelerometer CSV] [--python PATH]  (the pipeline vs librosa)
// swift run -c release sleepanalysis-bench queue [--database URL] [--jobs 500] [--clients 1] (the night queue)
import Foundation
import SleepAnalysis
import SleepAnalysisEvaluation

if CommandLine.arguments.dropFirst().first == "events" {
    exit(EventsBenchmarkCommand.run(Array(CommandLine.arguments.dropFirst(2))))
}
if CommandLine.arguments.dropFirst().first == "pipeline" {
    exit(await PipelineBenchmarkCommand.run(Array(CommandLine.arguments.dropFirst(2))))
}
if CommandLine.arguments.dropFirst().first == "queue" {
    exit(await QueueBenchmarkCommand.run(Array(CommandLine.arguments.dropFirst(2))))
}
if CommandLine.arguments.dropFirst().first == "profile" {
    exit(await ProfileBenchmarkCommand.run(Array(CommandLine.arguments.dropFirst(2))))
}
if CommandLine.arguments.dropFirst().first == "live" {
    exit(await LiveBenchmarkCommand.run(Array(CommandLine.arguments.dropFirst(2))))
}
if CommandLine.arguments.dropFirst().first == "peer" {
    exit(await PeerBenchmarkCommand.run(Array(CommandLine.arguments.dropFirst(2))))
}
if CommandLine.arguments.dropFirst().first == "vitals" {
    exit(VitalsBenchmarkCommand.run(Array(CommandLine.arguments.dropFirst(2))))
}

func fail(_ message: String) -> Never {
    exit(FrontEndBenchmarkOptions.commandLine.fail(message))
}

/// Peak resident memory of this process (VmHWM from /proc/self/status), in MiB.
func peakMemoryMiB() -> Double {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
        let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") })
    else { return .nan }
    let kib = line.split(separator: " ").compactMap { Double($0) }.first ?? .nan
    return kib / 1024
}

/// CPU time of this process (s): on a shared machine it measures the work, not the wait for a core.
func cpuSeconds() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}

/// Runs `work` and returns its value, wall-clock seconds and CPU seconds.
func timed<T>(_ work: () throws -> T) rethrows -> (T, wall: Double, cpu: Double) {
    let start = DispatchTime.now().uptimeNanoseconds
    let cpuStart = cpuSeconds()
    let value = try work()
    return (value, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9, cpuSeconds() - cpuStart)
}

struct Row: Codable {
    var file: String
    var inputSampleRate: Double
    var audioHours: Double
    var stage: String
    var wallSeconds: Double
    var cpuSeconds: Double
    /// Audio duration over wall-clock time.
    var realTimeFactor: Double
    /// Audio duration over CPU time (one core).
    var cpuRealTimeFactor: Double
}

let options = FrontEndBenchmarkOptions.parse(Array(CommandLine.arguments.dropFirst()))
var files: [URL] = []
if let input = options.input {
    files = [input]
} else {
    for rate in options.rates {
        let name = String(format: "sleepanalysis-bench-%gh-%d.%@", options.hours, rate, options.format.rawValue)
        let url = options.directory.appendingPathComponent(name)
        if options.regenerate || !FileManager.default.fileExists(atPath: url.path) {
            FileHandle.standardError.write(Data("writing \(url.path)…\n".utf8))
            do {
                let (_, seconds, _) = try timed {
                    try SyntheticNight.write(
                        to: url, duration: options.hours * 3600, sampleRate: rate, format: options.format)
                }
                FileHandle.standardError.write(Data(String(format: "  written in %.1f s\n", seconds).utf8))
            } catch {
                fail("cannot write \(url.path): \(error)")
            }
        }
        files.append(url)
    }
}

var rows: [Row] = []
for file in files {
    for stage in options.stages {
        do {
            let (summary, wall, cpu) = try timed {
                try FrontEndRun.run(file: file, stages: stage, blockFrames: options.blockFrames)
            }
            rows.append(
                Row(
                    file: file.lastPathComponent, inputSampleRate: summary.inputSampleRate,
                    audioHours: summary.audioDuration / 3600, stage: stage.rawValue, wallSeconds: wall, cpuSeconds: cpu,
                    realTimeFactor: summary.audioDuration / wall, cpuRealTimeFactor: summary.audioDuration / cpu))
        } catch {
            fail("\(file.path): \(error)")
        }
    }
}

// The file data source's replay (read, chunk, deliver to a counting sink), as fast as possible.
for file in files {
    let start = DispatchTime.now().uptimeNanoseconds
    let cpuStart = cpuSeconds()
    let outcome = await Task { try await FileReplayRun.run(file: file) }.result
    let wall = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    let cpu = cpuSeconds() - cpuStart
    guard case .success(let summary) = outcome else { fail("\(file.path): replay failed: \(outcome)") }
    rows.append(
        Row(
            file: file.lastPathComponent, inputSampleRate: summary.sampleRate, audioHours: summary.audioDuration / 3600,
            stage: "replay", wallSeconds: wall, cpuSeconds: cpu, realTimeFactor: summary.audioDuration / wall,
            cpuRealTimeFactor: summary.audioDuration / cpu))
}

// The accelerometer CSV reader (parse, check, deliver), as fast as possible.
if let accelerometer = options.accelerometer {
    let start = DispatchTime.now().uptimeNanoseconds
    let outcome = await Task { try await FileReplayRun.run(file: nil, accelerometer: accelerometer) }.result
    let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    guard case .success(let summary) = outcome else { fail("\(accelerometer.path): replay failed: \(outcome)") }
    print(
        String(
            format: "accelerometer CSV: %d rows in %.2f s (%.0f rows/s)", summary.accelerometerRows, seconds,
            Double(summary.accelerometerRows) / seconds))
}

let peak = peakMemoryMiB()
print("stage     input Hz  audio h  wall s   cpu s  × real time (wall)  × real time (cpu)")
for row in rows {
    let stage = row.stage.padding(toLength: 9, withPad: " ", startingAt: 0)
    print(
        stage
            + String(
                format: " %8.0f %8.2f %7.2f %7.2f %19.0f %18.0f", row.inputSampleRate, row.audioHours, row.wallSeconds,
                row.cpuSeconds, row.realTimeFactor, row.cpuRealTimeFactor))
}
print(String(format: "peak memory (VmHWM): %.1f MiB", peak))

struct Report: Codable {
    var benchmark = "front-end"
    var rows: [Row]
    var peakMemoryMiB: Double
}
let encoder = JSONEncoder()
encoder.outputFormatting = [.sortedKeys]
if let json = try? encoder.encode(Report(rows: rows, peakMemoryMiB: peak)) {
    print(String(decoding: json, as: UTF8.self))
}
