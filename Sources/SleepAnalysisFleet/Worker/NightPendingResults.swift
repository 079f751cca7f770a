import Foundation
import SleepAnalysis

/// Finished results the database could not take (an outage), kept on disk under the worker's storage root
/// (`pending-results/job-<id>-<lease>.json`) beside the copy in memory, so that a worker stopped or restarted during
/// the outage still offers them when the database returns: the next worker started on that storage root offers each
/// one with its lease token before claiming anything (the token decides, as always).
enum NightPendingResults {
    /// What is kept: the job, the lease token and the result.
    private struct Kept: Codable {
        var jobId: Int64
        var token: UUID
        var subject: String
        var result: String
    }

    /// The folder under `storageRoot`.
    static func directory(storageRoot: URL) -> URL {
        storageRoot.appendingPathComponent("pending-results", isDirectory: true)
    }

    /// The file of a lease's result.
    static func file(_ lease: NightLease, storageRoot: URL) -> URL {
        directory(storageRoot: storageRoot).appendingPathComponent(
            "job-\(lease.job.id)-\(lease.token.uuidString).json")
    }

    /// Writes the result of `lease` (atomically).
    ///
    /// - Throws: `SleepCycleSdkError.storageFailure` when it cannot be encoded or written.
    static func keep(_ result: AnalysisResult, of lease: NightLease, storageRoot: URL) throws {
        let encoded = try SessionStoreRecord(result).result
        let kept = Kept(
            jobId: lease.job.id, token: lease.token, subject: lease.job.submission.subjectId,
            result: String(decoding: encoded, as: UTF8.self))
        do {
            try FileManager.default.createDirectory(
                at: directory(storageRoot: storageRoot), withIntermediateDirectories: true)
            try JSONEncoder().encode(kept).write(to: file(lease, storageRoot: storageRoot), options: .atomic)
        } catch {
            throw SleepCycleSdkError.storageFailure("cannot keep the result of job \(lease.job.id): \(error)")
        }
    }

    /// Removes the kept result of `lease`, if any.
    static func forget(_ lease: NightLease, storageRoot: URL) {
        try? FileManager.default.removeItem(at: file(lease, storageRoot: storageRoot))
    }

    /// The kept results under `storageRoot`: each as the lease it was analysed under (enough to complete it) and
    /// its result. Files that do not decode are skipped (and left for an operator).
    static func all(storageRoot: URL) -> [(NightLease, AnalysisResult)] {
        let folder = directory(storageRoot: storageRoot)
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter {
            $0.hasPrefix("job-") && $0.hasSuffix(".json")
        }
        return names.sorted().compactMap { name in
            guard let data = try? Data(contentsOf: folder.appendingPathComponent(name)),
                let kept = try? JSONDecoder().decode(Kept.self, from: data),
                let result = try? PersistenceCoding.decode(
                    AnalysisResult.self, from: Data(kept.result.utf8), what: "the kept result of job \(kept.jobId)")
            else { return nil }
            let now = Date()
            let job = NightJob(
                id: kept.jobId,
                submission: NightSubmission(
                    audio: URL(fileURLWithPath: "/"), startTime: result.startTime, subjectId: kept.subject),
                state: .running, attempts: 0, submittedAt: now, availableAt: now, startedAt: nil, finishedAt: nil,
                leasedBy: nil, leaseExpiresAt: nil, lastError: nil, idempotencyKey: nil)
            return (NightLease(job: job, token: kept.token, expiresAt: now), result)
        }
    }
}
