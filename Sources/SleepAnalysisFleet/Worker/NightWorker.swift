import Foundation
import SleepAnalysis

/// Analyses nights from a `NightQueue` until stopped: claims jobs under a lease, analyses each with a
/// `SleepAnalyzer` of its own (up to `concurrency` at once), renews the leases while it works, and stores each
/// result or failure exactly once.
///
/// ```swift
/// let queue = try await NightQueue(address: FleetDatabaseAddress.resolve(nil))
/// let worker = NightWorker(queue: queue, configuration: NightWorkerConfiguration(apiKey: key, concurrency: 2))
/// Task { try await worker.run() }
/// // later, e.g. on SIGTERM:
/// await worker.stop()        // finish the running nights (up to drainTimeout), then return from run()
/// ```
///
/// A worker that dies (SIGKILL, power loss) stops renewing: once its leases expire other workers claim its jobs
/// and analyse them from the start.
public final class NightWorker: Sendable {
    /// The queue.
    public let queue: NightQueue
    /// How the worker works.
    public let configuration: NightWorkerConfiguration
    let control = NightWorkerControl()
    let logger: PackageLogger
    let metrics = NightWorkerMetrics()

    /// A worker on `queue`; nothing happens until `run()`.
    ///
    /// - Parameters:
    ///   - queue: The queue.
    ///   - configuration: How to work.
    public init(queue: NightQueue, configuration: NightWorkerConfiguration) {
        self.queue = queue
        self.configuration = configuration
        logger = PackageLogger(threshold: configuration.logLevel, destination: configuration.logger).with(
            "worker", configuration.name)
    }

    /// Works until `stop` is called (then returns once the running nights are finished or released).
    ///
    /// First removes the folders that runs of a killed worker left in the storage root. While the database cannot
    /// be reached, slots wait with back-off (running nights go on, and their results are stored once it answers).
    ///
    /// - Throws: `SleepCycleSdkError.invalidApiKey` or `.featureNotEnabled` when the licence is refused, and
    ///   `FleetDatabaseError` (`authentication`) when the database refuses the worker's login (the worker gives its
    ///   jobs back and stops).
    public func run() async throws {
        let abandoned = NightRunFolders.removeAbandoned(
            storageRoot: configuration.storageRoot, downloadDirectory: configuration.downloadDirectory)
        if !abandoned.isEmpty {
            logger.warning(
                "removed \(abandoned.count) folder(s) left by a worker that died: \(abandoned.joined(separator: ", "))")
        }
        await offerKeptResults()
        let queues =
            configuration.queues.isEmpty ? "every queue" : "queues " + configuration.queues.joined(separator: ", ")
        logger.info("started: \(configuration.concurrency) at once, \(queues), on \(queue.address)")
        let listening = Task { await listenForJobs() }
        let pruning = Task { await pruneNow() }
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<configuration.concurrency {
                group.addTask { await self.workSlot() }
            }
        }
        listening.cancel()
        pruning.cancel()
        await listening.value
        await pruning.value
        logger.info("stopped")
        if let fault = await control.fault { throw fault }
    }

    /// The worker's metrics in the Prometheus text format: the queue's gauges (`NightQueue.metricsText()`, when
    /// the database answers; `sleepanalysis_worker_database_up` says whether it did), then the worker's own
    /// counters: claims and their latency, analysis seconds, failures by class, leases lost, results kept through
    /// an outage, database reconnections, running nights. What the worker's `/metrics` endpoint serves.
    ///
    /// - Returns: The text (content type `text/plain; version=0.0.4`).
    public func metricsText() async -> String {
        var text = PrometheusText()
        var reachable = true
        do {
            NightQueue.write(try await queue.queueCounts(), to: &text)
        } catch {
            reachable = false
        }
        text.family("sleepanalysis_worker_database_up", "gauge", "1 when the database answered the metrics query.")
        text.sample("sleepanalysis_worker_database_up", [("worker", configuration.name)], reachable ? 1 : 0)
        metrics.write(to: &text, worker: configuration.name, reconnections: queue.database.reconnections)
        return text.text
    }

    /// Whether the worker works, and what it is doing.
    ///
    /// - Returns: The health: not healthy once stopping or stopped by a fault; a database that cannot be reached
    ///   is reported but healthy (the worker waits for it, keeping its results).
    public func health() async -> NightWorkerHealth {
        let (contact, failure) = metrics.databaseState
        let claiming = await control.isClaiming
        let faulted = await control.fault != nil
        return NightWorkerHealth(
            isHealthy: claiming && !faulted, worker: configuration.name,
            state: faulted ? "faulted" : claiming ? "working" : "stopping", runningJobs: metrics.running,
            databaseReachable: failure == nil, lastDatabaseContact: contact, databaseError: failure)
    }

    /// Stops the worker: it claims nothing more; running nights are finished (or, after `drainTimeout` or with
    /// `releasingJobs`, given back to the queue for another worker). `run()` returns when they are.
    ///
    /// - Parameter releasingJobs: Give the running nights back at once instead of finishing them.
    public func stop(releasingJobs: Bool = false) async {
        await control.stop(releasingJobs ? .release : .drain)
        guard !releasingJobs else { return }
        let timeout = configuration.drainTimeout
        Task { [control] in
            try? await Task.sleep(nanoseconds: UInt64(timeout * 1_000_000_000))
            await control.stop(.release)
        }
    }

    // MARK: - Slots

    /// One slot: claim a job, analyse it, repeat; wait when the queue is empty or unreachable.
    private func workSlot() async {
        var failures = 0
        while await control.isClaiming {
            let lease: NightLease?
            do {
                lease = try await queue.claim(
                    worker: configuration.name, leaseDuration: configuration.leaseDuration,
                    queues: configuration.queues)
                metrics.databaseAnswered()
                failures = 0
            } catch let error as FleetDatabaseError where error.kind == .authentication {
                // A refused login does not pass by retrying: reported once, by run().
                metrics.databaseFailed(error)
                await control.fail(error)
                continue
            } catch {
                metrics.databaseFailed(error)
                failures += 1
                let pause = min(30, configuration.idlePollInterval * pow(2, Double(min(failures, 5) - 1)))
                logger.warning("cannot claim a job (retrying in \(Int(pause.rounded(.up))) s): \(error)")
                await control.wait(upTo: pause)
                continue
            }
            guard let lease else {
                if configuration.exitsWhenIdle {
                    logger.info("no job is ready: stopping (exits when idle)")
                    await control.stop(.drain)
                }
                await control.wait(upTo: configuration.idlePollInterval)
                continue
            }
            metrics.claimed(waited: lease.waitedSeconds)
            await process(lease)
        }
    }

    /// Offers the results a worker on this storage root kept through an outage and could not store before it
    /// stopped: each is stored if its lease token still holds the job, else dropped.
    private func offerKeptResults() async {
        let root = configuration.storageRoot
        for (lease, result) in NightPendingResults.all(storageRoot: root) {
            let id = lease.job.id
            let stored = await persistently("storing the kept result of job \(id)") {
                try await self.queue.complete(lease, result: result, worker: self.configuration.name)
            }
            switch stored {
            case true?:
                metrics.completed()
                logger.info("job \(id): done, with the result a stopped worker kept through an outage")
            case false?: logger.warning("job \(id): a kept result was refused (the job was taken over); dropped")
            case nil: continue
            }
            NightPendingResults.forget(lease, storageRoot: root)
        }
    }

    /// Prunes finished jobs every `pruneInterval` while the worker runs, when `pruneAge` is set.
    private func pruneNow() async {
        guard let age = configuration.pruneAge else { return }
        while !Task.isCancelled, await control.isClaiming {
            do {
                let pruned = try await queue.prune(olderThan: age)
                metrics.pruned(pruned.jobs)
                if pruned.jobs > 0 {
                    logger.info("pruned \(pruned.jobs) finished job(s) with \(pruned.results) result(s)")
                }
            } catch {
                logger.warning("cannot prune finished jobs (trying again later): \(error)")
            }
            await control.wait(upTo: configuration.pruneInterval)
        }
    }

    /// Wakes idle slots when a job is submitted or retried (`NOTIFY`), until the worker stops.
    private func listenForJobs() async {
        let listener = PostgresListener(address: queue.address, channels: [NightQueueSchema.channel])
        while !Task.isCancelled, await control.isClaiming {
            do {
                if try await !listener.wait(upTo: 0.5).isEmpty { await control.wakeAll() }
            } catch {
                logger.debug("not listening for new jobs (polling instead): \(error)")
                try? await Task.sleep(nanoseconds: UInt64(configuration.idlePollInterval * 1_000_000_000))
            }
        }
        await listener.close()
    }
}
