import Foundation
import SleepAnalysis

/// The queue's metrics, in the Prometheus text format.
extension NightQueue {
    /// The queue as Prometheus metrics: `sleepanalysis_queue_jobs{queue,state}` (a gauge per named queue and
    /// state) and `sleepanalysis_queue_oldest_ready_seconds{queue}` (how long the job ready longest has waited), read
    /// from the database now; what `sleepanalysis queue metrics` prints and every worker's `/metrics` begins with.
    ///
    /// - Returns: The text (`PrometheusText.contentType`).
    /// - Throws: `FleetDatabaseError`.
    public func metricsText() async throws -> String {
        var text = PrometheusText()
        Self.write(try await queueCounts(), to: &text)
        return text.text
    }

    /// Writes the queue's gauges.
    static func write(_ counts: [NightQueueCount], to text: inout PrometheusText) {
        text.family("sleepanalysis_queue_jobs", "gauge", "Jobs in the night queue, by named queue and state.")
        for count in counts {
            for state in NightJobState.allCases {
                text.sample(
                    "sleepanalysis_queue_jobs", [("queue", count.queue), ("state", state.rawValue)],
                    Double(count.jobs[state] ?? 0))
            }
        }
        text.family(
            "sleepanalysis_queue_oldest_ready_seconds", "gauge",
            "Seconds the job ready longest has waited for a worker, by named queue (0 when none is ready).")
        for count in counts {
            text.sample(
                "sleepanalysis_queue_oldest_ready_seconds", [("queue", count.queue)], count.oldestReadySeconds ?? 0)
        }
    }
}
