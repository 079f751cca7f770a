import CommandLineKit
import Foundation
import SleepAnalysis
import SleepAnalysisFleet

/// `sleepanalysis-bench queue [--database URL] [--jobs N] [--clients K] [--input AUDIO]`: the night queue's own
/// cost. It analyses `AUDIO` once for a real result, then submits N jobs and has K clients (one connection each,
/// like K workers) claim and complete them with that result as fast as PostgreSQL allows: submits, claims and
/// completions per second, the database's time per night beside the night's analysis, and how many workers of
/// nights like this one server could feed.
enum QueueBenchmarkCommand {
    /// Runs the benchmark and returns the exit status.
    static func run(_ arguments: [String]) async -> Int32 {
        let parsed: ParsedArguments
        switch commandLine.parse(arguments) {
        case .parsed(let given): parsed = given
        case .finished(let status): return status
        }
        let database = parsed.option("database")
        var jobs = 500
        if let value = parsed.option("jobs") {
            guard let count = Int(value), count > 0 else { return commandLine.fail("--jobs: a positive whole number") }
            jobs = count
        }
        var clients = 1
        if let value = parsed.option("clients") {
            guard let count = Int(value), (1...64).contains(count) else {
                return commandLine.fail("--clients: 1 to 64")
            }
            clients = count
        }
        let input = URL(fileURLWithPath: parsed.option("input") ?? "Fixtures/night_short.ogg")
        do {
            let night = try await BenchmarkNight.analyse(input)
            let address = FleetDatabaseAddress.resolve(database)
            let queues = try await openQueues(address, count: clients)
            let subject = "queue-bench-\(UUID().uuidString.prefix(8))"
            let submission = NightSubmission(
                audio: input.standardizedFileURL, startTime: night.result.startTime, subjectId: subject)
            let submitSeconds = try await measured {
                for _ in 0..<jobs { _ = try await queues[0].submit(submission) }
            }
            let (claims, claimSeconds, completeSeconds) = try await drain(queues, result: night.result)
            for queue in queues { await queue.close() }
            guard claims == jobs else {
                FileHandle.standardError.write(Data("sleepanalysis-bench queue: \(claims) of \(jobs) claimed\n".utf8))
                return 1
            }
            report(
                jobs: jobs, clients: clients, night: night, submitSeconds: submitSeconds, claimSeconds: claimSeconds,
                completeSeconds: completeSeconds)
            return 0
        } catch {
            FileHandle.standardError.write(Data("sleepanalysis-bench queue: \(error)\n".utf8))
            return 1
        }
    }

    private static func openQueues(_ address: FleetDatabaseAddress, count: Int) async throws -> [NightQueue] {
        try await NightQueue.migrate(address: address)
        var queues: [NightQueue] = []
        for _ in 0..<count { queues.append(try await NightQueue(address: address)) }
        return queues
    }

    /// Every client claims and completes jobs until none is left. Returns the jobs claimed and the seconds the
    /// clients spent in claims and in completions, summed over clients (each client waits for its own calls only).
    private static func drain(
        _ queues: [NightQueue], result: AnalysisResult
    ) async throws -> (claims: Int, claimSeconds: Double, completeSeconds: Double) {
        try await withThrowingTaskGroup(of: (Int, Double, Double).self) { group in
            for (index, queue) in queues.enumerated() {
                group.addTask {
                    var (claims, claimSeconds, completeSeconds) = (0, 0.0, 0.0)
                    while true {
                        var lease: NightLease?
                        claimSeconds += try await measured {
                            lease = try await queue.claim(worker: "bench-\(index)", leaseDuration: 600)
                        }
                        guard let lease else { break }
                        completeSeconds += try await measured {
                            _ = try await queue.complete(lease, result: result, worker: "bench-\(index)")
                        }
                        claims += 1
                    }
                    return (claims, claimSeconds, completeSeconds)
                }
            }
            return try await group.reduce(into: (0, 0.0, 0.0)) { total, client in
                total = (total.0 + client.0, total.1 + client.1, total.2 + client.2)
            }
        }
    }

    private static func report(
        jobs: Int, clients: Int, night: BenchmarkNight.Run, submitSeconds: Double, claimSeconds: Double,
        completeSeconds: Double
    ) {
        let perNight = (submitSeconds + claimSeconds + completeSeconds) / Double(jobs)
        // With K clients in parallel the server's rate is K over one client's time per job.
        let claimsPerSecond = Double(clients) * Double(jobs) / (claimSeconds + completeSeconds)
        let analysisPerAudioSecond = night.cpuSeconds / night.audioSeconds
        print(
            String(
                format: "queue, %d jobs, %d client(s): submit %.0f/s; claim %.0f/s; complete %.0f/s "
                    + "(result and session-store night in one transaction); claim + complete %.0f jobs/s",
                jobs, clients, Double(jobs) / submitSeconds, Double(clients) * Double(jobs) / claimSeconds,
                Double(clients) * Double(jobs) / completeSeconds, claimsPerSecond))
        print(
            String(
                format: "database time per night %.2f ms against %.2f s of analysis CPU for this %.0f-min night: "
                    + "%.2f %%; for an 8-hour night (%.1f s of CPU): %.3f %%",
                perNight * 1000, night.cpuSeconds, night.audioSeconds / 60,
                100 * perNight / night.cpuSeconds, analysisPerAudioSecond * 28_800,
                100 * perNight / (analysisPerAudioSecond * 28_800)))
        print(
            String(
                format: "one server at %.0f jobs/s feeds %.0f single-core workers of 8-hour nights", claimsPerSecond,
                claimsPerSecond * analysisPerAudioSecond * 28_800))
    }

    private static func measured(_ work: () async throws -> Void) async throws -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        try await work()
        return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    }

    private static let commandLine = BenchmarkCommandLine(
        command: "queue", syntax: "[--database URL] [--jobs N] [--clients K] [--input AUDIO]",
        options: ["database", "jobs", "clients", "input"])
}
