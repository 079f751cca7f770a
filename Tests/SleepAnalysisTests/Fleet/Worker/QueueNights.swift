import Foundation
import TestSupport
import XCTest

@testable import SleepAnalysis
@testable import SleepAnalysisFleet

/// Nights and waits for the queue and worker tests: 4-minute WAV parts of the demo night (`AnalyzerNights`), a
/// file that is not audio, and polling the queue until a condition holds.
enum QueueNights {
    /// A submission of night `index` (0...4) written into `directory`.
    static func submission(_ index: Int, in directory: URL, subject: String = "subject") throws -> NightSubmission {
        NightSubmission(
            audio: try AnalyzerNights.write(index: index, into: directory),
            startTime: AnalyzerNights.startTime(of: index), subjectId: "\(subject)-\(index)")
    }

    /// A submission whose "audio" is a text file.
    static func badSubmission(in directory: URL) throws -> NightSubmission {
        let url = directory.appendingPathComponent("not-audio.wav")
        try Data("this is not a WAV file\n".utf8).write(to: url)
        return NightSubmission(audio: url, startTime: AnalyzerNights.startTime(of: 9), subjectId: "bad")
    }

    /// A worker configuration for tests: short leases, quick polling, a fresh licence, quiet logs.
    static func configuration(
        name: String, storage: URL, leaseDuration: TimeInterval = 5, pace: ReplayPace = .asFastAsPossible,
        exitsWhenIdle: Bool = false
    ) throws -> NightWorkerConfiguration {
        let licence = try TestLicenses.make()
        return NightWorkerConfiguration(
            apiKey: licence.apiKey, trustedIssuerKeys: [licence.trustedKey], name: name, leaseDuration: leaseDuration,
            renewalInterval: min(1, leaseDuration / 3), idlePollInterval: 0.2, drainTimeout: 30,
            exitsWhenIdle: exitsWhenIdle, storageRoot: storage.appendingPathComponent(name), pace: pace,
            logLevel: .error)
    }

    /// Polls `condition` every 0.1 s until it holds or `timeout` passes.
    ///
    /// - Returns: Whether it held.
    static func waitUntil(
        timeout: TimeInterval, _ condition: () async throws -> Bool
    ) async throws -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if try await condition() { return true }
            try await Task.sleep(nanoseconds: 100_000_000)
        }
        return try await condition()
    }

    /// How many results are stored per job.
    static func resultCounts(_ database: PostgresDatabase) async throws -> [Int64: Int64] {
        try await database.run { connection in
            var counts: [Int64: Int64] = [:]
            for row in try connection.execute("SELECT job_id, count(*) FROM night_results GROUP BY job_id").rows {
                counts[try row.int64(0)] = try row.int64(1)
            }
            return counts
        }
    }
}
