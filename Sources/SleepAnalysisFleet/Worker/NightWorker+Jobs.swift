import Foundation
import SleepAnalysis

extension NightWorker {
    /// Analyses one leased job while renewing its lease, then ends it in the queue.
    func process(_ lease: NightLease) async {
        let job = lease.job
        logger.info("job \(job.id): claimed (attempt \(job.attempts) of \(job.submission.maxAttempts))")
        var checkpoint: NightCheckpoint?
        if job.attempts > 1 {
            checkpoint =
                await persistently("reading the checkpoint of job \(job.id)") {
                    try await self.queue.checkpoint(jobId: job.id)
                } ?? nil
        }
        if let checkpoint {
            logger.info(
                "job \(job.id): resuming after \(checkpoint.epochs) epochs journaled by \(checkpoint.writtenBy)")
        }
        let run = NightAnalysisRun(lease: lease, configuration: configuration, checkpoint: checkpoint)
        let began = Date()
        await control.register(run, job: job.id)
        let outcome = await withTaskGroup(of: NightAnalysisRun.Outcome?.self) { group in
            group.addTask { await run.run() }
            group.addTask {
                await self.keepLeased(lease, run: run)
                return nil
            }
            var outcome = NightAnalysisRun.Outcome.aborted(.leaseLost)
            for await value in group {
                guard let value else { continue }
                outcome = value
                group.cancelAll()
            }
            return outcome
        }
        await control.unregister(job: job.id)
        if case .analysed = outcome {
            metrics.ran(seconds: Date().timeIntervalSince(began), analysed: true)
        } else {
            metrics.ran(seconds: 0, analysed: false)
        }
        await finish(lease, outcome)
    }

    /// Renews the lease every `renewalInterval` until cancelled, saving the night's journal as a checkpoint after
    /// each renewal when it has grown; aborts the run when the lease is lost.
    private func keepLeased(_ lease: NightLease, run: NightAnalysisRun) async {
        var lease = lease
        var savedEpochs = 0
        while true {
            do {
                try await Task.sleep(nanoseconds: UInt64(configuration.renewalInterval * 1_000_000_000))
            } catch {
                return
            }
            do {
                guard try await queue.renew(&lease, for: configuration.leaseDuration) else {
                    logger.warning("job \(lease.job.id): lease lost (cancelled, or expired and taken); stopping it")
                    metrics.leaseLost()
                    run.abort(.leaseLost)
                    return
                }
                metrics.databaseAnswered()
                savedEpochs = await saveCheckpoint(lease, run: run, after: savedEpochs)
            } catch {
                // The night goes on: its lease is renewed, or its result stored, once the database answers again.
                metrics.databaseFailed(error)
                logger.warning("job \(lease.job.id): cannot renew the lease (analysing on, trying again): \(error)")
            }
        }
    }

    /// Saves the run's journal when it holds more than `savedEpochs` epochs.
    ///
    /// - Returns: The epochs now saved.
    private func saveCheckpoint(_ lease: NightLease, run: NightAnalysisRun, after savedEpochs: Int) async -> Int {
        let (storage, name) = (run.storageDirectory, configuration.name)
        let snapshot = await withCheckedContinuation { continuation in
            // The copy blocks on SQLite: off the cooperative pool.
            DispatchQueue.global().async {
                continuation.resume(returning: try? NightJournalSnapshot.take(storageDirectory: storage, worker: name))
            }
        }
        guard let snapshot, snapshot.epochs > savedEpochs else { return savedEpochs }
        do {
            try await queue.saveCheckpoint(lease, snapshot)
            logger.debug("job \(lease.job.id): checkpoint after \(snapshot.epochs) epochs")
            return snapshot.epochs
        } catch {
            logger.warning("job \(lease.job.id): cannot save a checkpoint: \(error)")
            return savedEpochs
        }
    }

    /// Stores what the run came to.
    private func finish(_ lease: NightLease, _ outcome: NightAnalysisRun.Outcome) async {
        let id = lease.job.id
        switch outcome {
        case .analysed(let result):
            // The result is kept in memory until the database answers: an outage, however long, neither loses
            // it nor spends an attempt (nobody takes the lease over before it has run again in full after the
            // server's restart, and the lease token decides if someone did).
            let root = configuration.storageRoot
            let stored = await persistently(
                "storing the result of job \(id)", keeping: true,
                onFirstFailure: {
                    // Also on disk: a worker stopped during the outage leaves it for the next one on this storage.
                    do {
                        try NightPendingResults.keep(result, of: lease, storageRoot: root)
                    } catch {
                        self.logger.warning("job \(id): \(error)")
                    }
                }
            ) {
                try await self.queue.complete(lease, result: result, worker: self.configuration.name)
            }
            if stored != nil { NightPendingResults.forget(lease, storageRoot: root) }
            if stored == false {
                metrics.leaseLost()
                logger.warning("job \(id): analysed, but the lease was lost; result discarded")
            }
            if stored == true {
                metrics.completed()
                logger.info("job \(id): done")
            }
        case .failed(let classification):
            if case .worker(let error) = classification {
                metrics.failed(.worker)
                // The worker's run throws this error to its caller: logged at debug only, not reported twice.
                logger.debug("job \(id): this worker cannot analyse nights, stopping: \(error.description)")
                _ = await persistently("releasing job \(id)") { try await self.queue.release(lease) }
                await control.fail(error)
                return
            }
            guard let failure = classification.jobFailure else { return }
            if case .input = failure { metrics.failed(.input) } else { metrics.failed(.transient) }
            let state = await persistently("failing job \(id)") { try await self.queue.fail(lease, failure) }
            switch (failure, state.flatMap { $0 }) {
            case (_, nil): logger.warning("job \(id): failed, but the lease was lost: \(failure.message)")
            case (_, .queued?): logger.warning("job \(id): will be retried: \(failure.message)")
            default: logger.warning("job \(id): failed: \(failure.message)")
            }
        case .aborted(.released):
            _ = await persistently("releasing job \(id)") { try await self.queue.release(lease) }
            logger.info("job \(id): released to the queue")
        case .aborted(.leaseLost):
            break
        }
    }

    /// Runs a queue call, retrying transient database failures with back-off (0.5 s doubling to half the lease, at
    /// most 30 s) until the database answers. Once the worker is releasing its jobs (a second signal, or the drain time spent), three
    /// more tries at most.
    ///
    /// - Parameters:
    ///   - what: The call, for logs.
    ///   - keeping: The call stores a finished result (counted once in the metrics when it has to wait).
    ///   - onFirstFailure: Run once, when the first try failed transiently.
    ///   - call: The call.
    /// - Returns: The call's value, or nil when it failed for good or the worker gave up (the lease then expires
    ///   and another worker takes the job).
    func persistently<T: Sendable>(
        _ what: String, keeping: Bool = false, onFirstFailure: () -> Void = {}, _ call: @Sendable () async throws -> T
    ) async -> T? {
        var delay: TimeInterval = 0.5
        // At least two tries per lease: once the database is back, the lease holder is there before the lease
        // (which restarts with the server) can be taken over.
        let maximumDelay = min(30, max(0.5, configuration.leaseDuration / 2))
        var failures = 0
        var triesWhileReleasing = 0
        while true {
            do {
                let value = try await call()
                metrics.databaseAnswered()
                if failures > 0 { logger.info("\(what): done after the database returned (\(failures) failed tries)") }
                return value
            } catch let error as FleetDatabaseError where error.isTransient {
                metrics.databaseFailed(error)
                failures += 1
                if failures == 1 {
                    if keeping { metrics.resultKept() }
                    onFirstFailure()
                }
                if await control.isReleasing {
                    triesWhileReleasing += 1
                    if triesWhileReleasing > 3 {
                        logger.error("\(what) failed; the worker is stopping, giving up: \(error)")
                        return nil
                    }
                }
                if failures == 1 || failures.isMultiple(of: 10) {
                    let kept = keeping ? " (the result is kept until it answers)" : ""
                    logger.warning("\(what) failed, retrying until the database answers\(kept): \(error)")
                }
                try? await Task.sleep(nanoseconds: UInt64(delay * 1_000_000_000))
                delay = min(delay * 2, maximumDelay)
            } catch {
                metrics.databaseFailed(error)
                logger.error("\(what) failed: \(error)")
                return nil
            }
        }
    }
}
