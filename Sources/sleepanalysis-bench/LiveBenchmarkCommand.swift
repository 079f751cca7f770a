import Foundation
import SleepAnalysis
import SleepAnalysisEvaluation

/// `sleepanalysis-bench live [--seconds 60] [--rate 48000] [--channels 2] [--input FILE]`: what live analysis costs
/// a bedside device. The recording is replayed at the pace it was recorded (`ReplayPace.realTime`) through the SDK
/// with every feature (two sleepers, one per channel, for a stereo file), and the process's CPU time is divided by
/// the elapsed time: the share of one core the analysis keeps busy. A pipeline that waited busily would show a
/// share near 100 %. ALSA's own reads are not included: this machine has no capture device that runs at the pace
/// of a clock (ALSA's file plugin over the null device delivers as fast as it is read).
enum LiveBenchmarkCommand {
    /// Runs the benchmark and returns the exit status.
    static func run(_ arguments: [String]) async -> Int32 {
        var seconds = 60.0
        var rate = 48_000
        var channels = 2
        var input: URL?
        var rest = arguments[...]
        while let name = rest.popFirst() {
            guard let value = rest.popFirst() else { return usage("\(name) needs a value") }
            switch name {
            case "--seconds":
                guard let parsed = Double(value), parsed >= 5, parsed <= 3_600 else {
                    return usage("--seconds: 5 ... 3600")
                }
                seconds = parsed
            case "--rate":
                guard let parsed = Int(value), parsed >= 8_000, parsed <= 192_000 else {
                    return usage("--rate: 8000 ... 192000")
                }
                rate = parsed
            case "--channels":
                guard let parsed = Int(value), parsed == 1 || parsed == 2 else { return usage("--channels: 1 or 2") }
                channels = parsed
            case "--input": input = URL(fileURLWithPath: value)
            default: return usage("unknown option \(name)")
            }
        }
        do {
            let file = try input ?? recording(seconds: seconds, rate: rate, channels: channels)
            let run = try await analyseLive(file)
            print(
                String(
                    format: "live: %.1f s of %@ at the recorded pace in %.1f s; %.3f s CPU = %.2f %% of one core "
                        + "(%d session%@); peak memory %.1f MiB",
                    run.audioSeconds, file.lastPathComponent, run.wallSeconds, run.cpuSeconds,
                    100 * run.cpuSeconds / run.wallSeconds, run.sessions, run.sessions == 1 ? "" : "s",
                    peakMemoryMiB()))
            return 0
        } catch {
            FileHandle.standardError.write(Data("sleepanalysis-bench live: \(error)\n".utf8))
            return 1
        }
    }

    /// What one paced run cost.
    private struct Run {
        var audioSeconds: Double
        var wallSeconds: Double
        var cpuSeconds: Double
        var sessions: Int
    }

    /// Replays `file` at its recorded pace: one session for mono, a session per sleeper for stereo.
    private static func analyseLive(_ file: URL) async throws -> Run {
        let storage = FileManager.default.temporaryDirectory.appendingPathComponent("bench-live-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: storage) }
        let pair = try LicenseIssuer.generateKeyPair()
        let key = try LicenseIssuer.issue(
            features: .all, expires: Date().addingTimeInterval(7_200), subject: "benchmark",
            privateKey: pair.privateKey)
        try await SleepCycleSdk.initialize(
            logLevel: .error, apiKey: key, storageDirectory: storage, trustedIssuerKeys: [pair.publicKeyBase64])
        do {
            let run = try await replay(file)
            await SleepCycleSdk.deinitialize()
            return run
        } catch {
            await SleepCycleSdk.deinitialize()
            throw error
        }
    }

    /// The paced replay itself, on the initialised SDK.
    private static func replay(_ file: URL) async throws -> Run {
        let stereo = try AudioFileReader(url: file).channelCount == 2
        let source = SleepCycleSdk.createFileDataSource(
            audio: file, accelerometer: nil, startTime: Date(), pace: .realTime)
        let wallStart = DispatchTime.now().uptimeNanoseconds
        let cpuStart = cpuSeconds()
        var results: [AnalysisResult] = []
        if stereo {
            try await SleepCycleSdk.startDataSource(using: source)
            let primary = try await SleepCycleSdk.startMultiChannelAnalysis(
                channel: .primary, config: SleepAnalysisConfig(useAudio: true))
            let secondary = try await SleepCycleSdk.startMultiChannelAnalysis(
                channel: .secondary, config: SleepAnalysisConfig(useAudio: true))
            await source.waitUntilFinished()
            results.append(try await SleepCycleSdk.stopAnalysis(sessionId: primary))
            results.append(try await SleepCycleSdk.stopAnalysis(sessionId: secondary))
            await SleepCycleSdk.stopDataSource()
        } else {
            try await SleepCycleSdk.startAnalysis(config: SleepAnalysisConfig(useAudio: true), using: source)
            await source.waitUntilFinished()
            results.append(try await SleepCycleSdk.stopAnalysis())
        }
        let wall = Double(DispatchTime.now().uptimeNanoseconds - wallStart) / 1e9
        let cpu = cpuSeconds() - cpuStart
        let audio = results[0].endTime.timeIntervalSince(results[0].startTime)
        return Run(audioSeconds: audio, wallSeconds: wall, cpuSeconds: cpu, sessions: results.count)
    }

    /// The benchmark's synthetic night at `rate` Hz, with a second, independent channel for stereo (written to /tmp
    /// on first use and reused).
    private static func recording(seconds: Double, rate: Int, channels: Int) throws -> URL {
        let directory = URL(fileURLWithPath: "/tmp")
        let name = String(format: "sleepanalysis-bench-live-%gs-%d-%dch.wav", seconds, rate, channels)
        let url = directory.appendingPathComponent(name)
        if FileManager.default.fileExists(atPath: url.path) { return url }
        var monoFiles: [URL] = []
        defer { for mono in monoFiles { try? FileManager.default.removeItem(at: mono) } }
        for channel in 0..<channels {
            let mono = directory.appendingPathComponent("\(name).channel\(channel).wav")
            try SyntheticNight.write(
                to: mono, duration: seconds, sampleRate: rate, format: .wav, seed: UInt64(channel + 1))
            monoFiles.append(mono)
        }
        let readers = try monoFiles.map { try AudioFileReader(url: $0) }
        let partial = directory.appendingPathComponent("\(name).partial")
        let writer = try AudioFileWriter(url: partial, sampleRate: rate, channelCount: channels, format: .wav16)
        while let first = try readers[0].read(maxFrames: rate) {
            let others = try readers.dropFirst().map { try $0.read(maxFrames: first.count) ?? [] }
            var interleaved = [Float](repeating: 0, count: first.count * channels)
            for frame in first.indices {
                interleaved[frame * channels] = first[frame]
                for (index, other) in others.enumerated() where frame < other.count {
                    interleaved[frame * channels + index + 1] = other[frame]
                }
            }
            try writer.write(interleaved)
        }
        try writer.close()
        try FileManager.default.moveItem(at: partial, to: url)
        return url
    }

    private static func usage(_ message: String) -> Int32 {
        FileHandle.standardError.write(
            Data(
                "sleepanalysis-bench live: \(message)\nusage: sleepanalysis-bench live [--seconds 60] [--rate 48000] [--channels 1|2] [--input FILE]\n"
                    .utf8))
        return 64
    }
}
