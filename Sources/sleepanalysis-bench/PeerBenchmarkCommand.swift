import CommandLineKit
import Foundation
import SleepAnalysis
import SleepAnalysisEvaluation

/// `sleepanalysis-bench peer [--input FILE | --hours N …] [--accelerometer CSV] [--stereo] [--python PATH]
/// [--script PATH]`: the librosa peer (`Tools/bench/librosa_peer.py`: resampling, STFT, A-weighted level and 64 mel
/// bands per analysed channel) as a child process, then the whole pipeline through the SDK (every feature; with
/// `--stereo` a session per channel, as `sleepanalysis analyze --stereo`) on the same file. Prints both CPU times,
/// both multiples of real time per core and how many times more CPU the peer took. The interpreter is `--python`,
/// else `$SLEEPANALYSIS_PYTHON`, else `python3` on `PATH`; the peer runs first, so a missing Python or librosa fails
/// at once (exit 69, with the install command).
enum PeerBenchmarkCommand {
    /// Runs the benchmark and returns the exit status.
    static func run(_ arguments: [String]) async -> Int32 {
        let parsed: ParsedArguments
        switch commandLine.parse(arguments) {
        case .parsed(let given): parsed = given
        case .finished(let status): return status
        }
        var night = BenchmarkNightChoice()
        do {
            try night.take(parsed)
        } catch {
            return commandLine.fail(error.message)
        }
        let accelerometer = parsed.option("accelerometer").map { URL(fileURLWithPath: $0) }
        let stereo = parsed.flag("stereo")
        let python =
            parsed.option("python") ?? ProcessInfo.processInfo.environment["SLEEPANALYSIS_PYTHON"] ?? "python3"
        let script = parsed.option("script").map { URL(fileURLWithPath: $0) } ?? PythonPeer.repositoryScript
        do {
            let peer = try PythonPeer(
                interpreter: try PythonPeer.interpreter(python, search: ProcessInfo.processInfo.environment["PATH"]),
                script: script)
            let file = try night.file()
            let measurement = try peer.measure(file: file, stereo: stereo)
            let run = try await BenchmarkNight.analyse(file, accelerometer: accelerometer, stereo: stereo)
            let comparison = try PeerComparison(
                audioSeconds: run.audioSeconds, pipelineCPUSeconds: run.cpuSeconds, peer: measurement)
            print(report(comparison, file: file, stereo: stereo, accelerometer: accelerometer != nil))
            return 0
        } catch let error as PythonPeerError {
            FileHandle.standardError.write(Data("sleepanalysis-bench peer: \(error)\n".utf8))
            switch error {
            case .interpreterNotFound, .missingModule, .scriptNotFound: return 69
            default: return 1
            }
        } catch {
            FileHandle.standardError.write(Data("sleepanalysis-bench peer: \(error)\n".utf8))
            return 1
        }
    }

    /// Both CPU times, both multiples of real time per core and the ratio; then the same as one JSON line.
    private static func report(_ comparison: PeerComparison, file: URL, stereo: Bool, accelerometer: Bool) -> String {
        let peer = comparison.peer
        let inputs = accelerometer ? "audio + accelerometer" : "audio"
        let lines = [
            String(
                format: "%@: %.2f h, %d Hz, %@", file.lastPathComponent, comparison.audioSeconds / 3600,
                peer.sampleRate, stereo ? "two sleepers (--stereo)" : "one sleeper"),
            String(
                format: "pipeline (SDK, every feature, %@): %.2f s CPU, %.0f× real time per core; peak memory %.1f MiB",
                inputs, comparison.pipelineCPUSeconds, comparison.pipelineRealTimePerCore, peakMemoryMiB()),
            String(
                format: "librosa %@ front end (%d signal%@): %.2f s CPU, %.0f× real time per core", peer.librosaVersion,
                peer.channels, peer.channels == 1 ? "" : "s", peer.cpuSeconds, comparison.peerRealTimePerCore),
            String(format: "ratio: the peer took %.2f× the pipeline's CPU", comparison.ratio),
        ]
        let json: [String: Any] = [
            "benchmark": "peer", "file": file.lastPathComponent, "stereo": stereo, "accelerometer": accelerometer,
            "audioSeconds": comparison.audioSeconds, "pipelineCPUSeconds": comparison.pipelineCPUSeconds,
            "peerCPUSeconds": peer.cpuSeconds, "pipelineRealTimePerCore": comparison.pipelineRealTimePerCore,
            "peerRealTimePerCore": comparison.peerRealTimePerCore, "ratio": comparison.ratio,
            "pipelinePeakMemoryMiB": peakMemoryMiB(),
            "librosaVersion": peer.librosaVersion,
        ]
        let encoded = (try? JSONSerialization.data(withJSONObject: json, options: [.sortedKeys])) ?? Data()
        return (lines + [String(decoding: encoded, as: UTF8.self)]).joined(separator: "\n")
    }

    private static let commandLine = BenchmarkCommandLine(
        command: "peer",
        syntax: "\(BenchmarkNightChoice.usage) [--accelerometer CSV] [--stereo] [--python PATH] [--script PATH]",
        options: BenchmarkNightChoice.optionNames.union(["accelerometer", "python", "script"]), flags: ["stereo"])
}
