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
    /// - Throws: `SleepCycleSdkError.invalidApiKey` or `.featureNotEnabled` when the licence is refused (the
    ///   worker gives its jobs back and stops).
    public func run() async throws {
        logger.info("started: \(configuration.concurrency) at once, on \(queue.address)")
        let listening = Task { await listenForJobs() }
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<configuration.concurrency {
                group.addTask { await self.workSlot() }
            }
        }
        listening.cancel()
        await listening.value
        logger.info("stopped")
        if let fault = await control.fault { throw fault }
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
                lease = try await queue.claim(worker: configuration.name, leaseDuration: configuration.leaseDuration)
                failures = 0
            } catch {
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
            await process(lease)
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
