import Foundation
import SleepAnalysis
import Synchronization

/// A worker's own counters since it started: claims and how long their jobs had waited, analyses and their
/// length, failures by class, leases lost, results kept through an outage, database reconnections, prunes.
///
/// Thread safety: every counter is behind one mutex.
final class NightWorkerMetrics: Sendable {
    /// The failure classes counted.
    enum FailureClass: String, Sendable, CaseIterable {
        /// The night is bad: the job failed for good.
        case input
        /// Retried later.
        case transient
        /// The worker cannot analyse (its licence).
        case worker
    }

    private struct Counters {
        var claims = 0
        var claimLatency = PrometheusHistogram(bounds: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 900, 3600])
        var analysisSeconds = PrometheusHistogram(bounds: [1, 2.5, 5, 10, 30, 60, 120, 300, 600, 1800, 3600, 14400])
        var completed = 0
        var failures = Dictionary(uniqueKeysWithValues: FailureClass.allCases.map { ($0, 0) })
        var leasesLost = 0
        var resultsKept = 0
        var running = 0
        var pruned = 0
        var lastDatabaseContact: Date?
        var lastDatabaseFailure: String?
    }

    private let counters = Mutex(Counters())
    /// When the worker started.
    let startedAt = Date()

    /// A job was claimed after waiting `seconds`.
    func claimed(waited seconds: Double) {
        counters.withLock {
            $0.claims += 1
            $0.claimLatency.observe(seconds)
            $0.running += 1
        }
    }

    /// A claimed job's run ended after `seconds` of analysis.
    func ran(seconds: Double, analysed: Bool) {
        counters.withLock {
            $0.running -= 1
            if analysed { $0.analysisSeconds.observe(seconds) }
        }
    }

    /// A result was stored.
    func completed() { counters.withLock { $0.completed += 1 } }
    /// A job failed.
    func failed(_ kind: FailureClass) { counters.withLock { $0.failures[kind, default: 0] += 1 } }
    /// A lease was found lost.
    func leaseLost() { counters.withLock { $0.leasesLost += 1 } }
    /// A finished result was kept while the database could not be reached.
    func resultKept() { counters.withLock { $0.resultsKept += 1 } }
    /// Finished jobs were pruned.
    func pruned(_ jobs: Int) { counters.withLock { $0.pruned += jobs } }

    /// The database answered.
    func databaseAnswered() {
        counters.withLock {
            $0.lastDatabaseContact = Date()
            $0.lastDatabaseFailure = nil
        }
    }

    /// The database could not be reached or refused a call.
    func databaseFailed(_ error: any Error) {
        counters.withLock { $0.lastDatabaseFailure = String(describing: error) }
    }

    /// Nights running now.
    var running: Int { counters.withLock { $0.running } }

    /// When the database last answered, and the failure since, if any.
    var databaseState: (contact: Date?, failure: String?) {
        counters.withLock { ($0.lastDatabaseContact, $0.lastDatabaseFailure) }
    }

    /// Writes the worker's metrics.
    ///
    /// - Parameters:
    ///   - text: Where.
    ///   - worker: The worker's name (a label on every sample).
    ///   - reconnections: Database reconnections so far.
    func write(to text: inout PrometheusText, worker: String, reconnections: Int) {
        let copy = counters.withLock { $0 }
        let label = [("worker", worker)]
        text.family("sleepanalysis_worker_claims_total", "counter", "Jobs this worker claimed.")
        text.sample("sleepanalysis_worker_claims_total", label, Double(copy.claims))
        text.family(
            "sleepanalysis_worker_claim_latency_seconds", "histogram",
            "How long each claimed job had been ready (queued and due, or its lease expired) before this worker took it."
        )
        text.histogram("sleepanalysis_worker_claim_latency_seconds", copy.claimLatency, label)
        text.family(
            "sleepanalysis_worker_analysis_seconds", "histogram",
            "Wall-clock seconds of each night analysed to the end by this worker (downloads included).")
        text.histogram("sleepanalysis_worker_analysis_seconds", copy.analysisSeconds, label)
        text.family("sleepanalysis_worker_jobs_completed_total", "counter", "Results this worker stored.")
        text.sample("sleepanalysis_worker_jobs_completed_total", label, Double(copy.completed))
        text.family(
            "sleepanalysis_worker_failures_total", "counter",
            "Jobs that failed in this worker, by class: input (failed for good), transient (retried), worker (licence)."
        )
        for kind in FailureClass.allCases {
            text.sample(
                "sleepanalysis_worker_failures_total", label + [("class", kind.rawValue)],
                Double(copy.failures[kind] ?? 0))
        }
        text.family(
            "sleepanalysis_worker_leases_lost_total", "counter",
            "Leases this worker found lost (the job cancelled, or expired and taken by another worker).")
        text.sample("sleepanalysis_worker_leases_lost_total", label, Double(copy.leasesLost))
        text.family(
            "sleepanalysis_worker_results_kept_total", "counter",
            "Finished results this worker kept while the database could not be reached, and offered when it returned.")
        text.sample("sleepanalysis_worker_results_kept_total", label, Double(copy.resultsKept))
        text.family(
            "sleepanalysis_worker_database_reconnects_total", "counter",
            "Connections to the database made again after one broke or could not be made.")
        text.sample("sleepanalysis_worker_database_reconnects_total", label, Double(reconnections))
        text.family("sleepanalysis_worker_running_jobs", "gauge", "Nights this worker is analysing now.")
        text.sample("sleepanalysis_worker_running_jobs", label, Double(copy.running))
        text.family(
            "sleepanalysis_worker_pruned_jobs_total", "counter", "Finished jobs this worker's periodic prune removed.")
        text.sample("sleepanalysis_worker_pruned_jobs_total", label, Double(copy.pruned))
        text.family("sleepanalysis_worker_up_seconds", "gauge", "Seconds since this worker started.")
        text.sample("sleepanalysis_worker_up_seconds", label, Date().timeIntervalSince(startedAt).rounded())
    }
}
