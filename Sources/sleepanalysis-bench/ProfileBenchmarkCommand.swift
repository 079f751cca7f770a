import CommandLineKit
import Foundation
import SleepAnalysis
import SleepAnalysisEvaluation

/// `sleepanalysis-bench profile [--input FILE | --hours N]`: where a night's CPU goes. Each stage (decode,
/// resample, front end, events, breathing rate, audio health) timed alone on one thread, then the whole pipeline
/// through the SDK (every feature), whose cost beyond the stages is staging, batching, the journal and the threads.
/// CPU seconds, so a busy machine does not inflate them.
enum ProfileBenchmarkCommand {
    /// Runs the profile and returns the exit status.
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
        do {
            let file = try night.file()
            let stages = try NightProfile.run(file: file)
            let pipeline = try await BenchmarkNight.analyse(file)
            print(table(stages: stages, pipelineCPU: pipeline.cpuSeconds, file: file))
            return 0
        } catch {
            FileHandle.standardError.write(Data("sleepanalysis-bench profile: \(error)\n".utf8))
            return 1
        }
    }

    /// The profile as a Markdown table: CPU seconds, multiple of real time per core, share of the pipeline.
    private static func table(stages: NightProfile.Result, pipelineCPU: Double, file: URL) -> String {
        let audio = stages.audioSeconds
        let names: [NightProfile.Stage: String] = [
            .decode: "decode (mixed to mono)", .resample: "resample to 16 kHz",
            .frontEnd: "front end (STFT, levels, mel)", .events: "events detector", .breathing: "breathing rate",
            .audioHealth: "audio health",
        ]
        func row(_ name: String, _ cpu: Double) -> String {
            let factor = (audio / max(cpu, 1e-9)).rounded()
            let grouped = factor < 1e9 ? Int(factor).formatted(.number.grouping(.automatic)) : "∞"
            return String(format: "| %@ | %.2f | %@× | %.0f %% |", name, cpu, grouped, 100 * cpu / pipelineCPU)
        }
        var lines = [
            String(format: "%@, %.2f h of audio, CPU seconds on one thread:", file.lastPathComponent, audio / 3600),
            "", "| Stage | CPU s | × real time per core | Share of the pipeline |", "|---|---:|---:|---:|",
        ]
        for stage in NightProfile.Stage.allCases { lines.append(row(names[stage]!, stages.cpuSeconds[stage] ?? 0)) }
        let sum = stages.cpuSeconds.values.reduce(0, +)
        lines.append(row("staging, batching, journal, threads (the rest)", pipelineCPU - sum))
        lines.append(row("**whole pipeline (SDK, every feature)**", pipelineCPU))
        return lines.joined(separator: "\n")
    }

    private static let commandLine = BenchmarkCommandLine(
        command: "profile", syntax: BenchmarkNightChoice.usage, options: BenchmarkNightChoice.optionNames)
}
