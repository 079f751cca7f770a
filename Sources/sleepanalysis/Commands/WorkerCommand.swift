import CommandLineKit
import Foundation
import SleepAnalysis
import SleepAnalysisFleet
import Synchronization

/// `sleepanalysis worker [--database URL] [--concurrency N] …`: analyses nights from the PostgreSQL queue until
/// stopped. SIGTERM or SIGINT: claim no more and finish the running nights (up to `--drain-seconds`, then give
/// them back); a second signal gives them back at once. Started while the database is down (or not yet migrated),
/// it waits with back-off; a login the database refuses ends it at once (exit 77).
enum WorkerCommand: Command {
    static let name = "worker"
    static let summary = "analyse nights from the PostgreSQL queue until stopped (SIGTERM finishes or releases them)"
    /// What it accepts, for help and completion.
    static var syntax: CommandSyntax { .options(specification) }

    static let specification = ArgumentSpecification(
        options: DatabaseArgument.options.union(InputPolicyArgument.options).union([
            "concurrency", "lease-seconds", "poll-seconds", "drain-seconds", "name", "pace", "storage", "log-level",
            "log-format", "queue", "prune-older-than", "prune-every", "metrics-address", CommandLineLicence.option,
        ]),
        flags: ["exit-when-idle"],
        usage: """
            usage: sleepanalysis worker [--database URL | --database-file FILE] [options]

            \(DatabaseArgument.usageLine)
              --concurrency N           nights analysed at once, each by its own analyzer (default 1)
              --queue NAME[,NAME…]      take jobs from these named queues only (default: every queue)
            \(InputPolicyArgument.usageLines)
                                        (without --input-root or $SLEEPANALYSIS_INPUT_ROOTS the worker opens no
                                        local path: jobs naming one fail)
              --lease-seconds S         a job's lease; a dead worker's job is taken over after it (default 60)
              --poll-seconds S          look at an empty queue this often (NOTIFY wakes it sooner; default 5)
              --drain-seconds S         on SIGTERM, finish running nights for up to S seconds before releasing
                                        them (default 30; a second signal releases at once)
              --exit-when-idle          stop once no job is ready (batch runs)
              --prune-older-than D      every --prune-every (default 1h), remove jobs finished longer ago than D
                                        (30d, 12h…) with their results; stored nights are kept
              --name NAME               the worker's name in the queue (default HOST-PID)
              --storage DIR             where each night's analyzer keeps its state (default: sleepanalysis-worker
                                        in the temporary directory; folders of killed workers are removed there)
              --pace realtime|N         replay speed (default: as fast as possible)
              --log-level LEVEL         debug, info (default), warning or error
              --log-format text|json    json: one JSON object a line on standard error (default text)
              --metrics-address H:P     serve GET /metrics (Prometheus) and GET /health on this address, e.g.
                                        127.0.0.1:9464 (port 0: any free one, logged); default: not served
              --api-key KEY             licence key (default $SLEEPANALYSIS_API_KEY, else a local evaluation
                                        licence)

            """)

    /// Runs the worker until SIGTERM or SIGINT (or, with `--exit-when-idle`, until nothing is left to claim).
    static func run(_ arguments: [String]) async throws {
        guard let parsed = try ArgumentParser.parseUnlessHelp(arguments, specification) else { return }
        let configuration = try makeConfiguration(parsed)
        let address = try DatabaseArgument.address(parsed)
        let stop = WorkerStop()
        let signals = TerminationSignals { count in
            Task { await stop.signal(count) }
        }
        defer { signals.cancel() }
        let log = PackageLogger(threshold: configuration.logLevel, destination: configuration.logger)
        var endpoint = try parsed.option("metrics-address").map(metricsAddress)
        // While it waits for the database, the endpoint answers /health (state waiting) and /metrics with 503.
        let lastFailure = LastDatabaseFailure()
        let waiting: HTTPServer?
        do {
            waiting = try endpoint.map { try waitingEndpoint($0, worker: configuration.name, lastFailure: lastFailure) }
        } catch {
            throw CommandLineError(kind: .failure, message: "cannot serve the metrics: \(error)")
        }
        if let waiting {
            endpoint?.port = waiting.port  // the same port once the worker serves it
            log.info("serving /health on http://\(shown(waiting)) while waiting for the database")
        }
        let opened: NightQueue?
        do {
            opened = try await waitForQueue(address, stop: stop, log: log, lastFailure: lastFailure)
        } catch {
            waiting?.stop()
            throw error
        }
        waiting?.stop()
        guard let queue = opened else { return }
        let worker = NightWorker(queue: queue, configuration: configuration)
        await stop.attach(worker)
        let server: HTTPServer?
        do {
            server = try endpoint.map { try worker.serveMetrics(on: $0) }
        } catch {
            await queue.close()
            throw CommandLineError(kind: .failure, message: "cannot serve the metrics: \(error)")
        }
        defer { server?.stop() }
        if let server { log.info("serving /metrics and /health on http://\(shown(server))") }
        if configuration.inputPolicy.localRoots?.isEmpty == true {
            log.warning("no --input-root: jobs naming a local path fail; only URLs are analysed")
        }
        do {
            try await worker.run()
        } catch {
            await queue.close()
            throw error
        }
        await queue.close()
    }

    /// Opens the queue, waiting with back-off (1 s doubling to 30 s) while the database cannot be reached or is
    /// not yet migrated; a refused login is thrown at once.
    ///
    /// - Returns: The queue, or nil when a signal came while waiting.
    private static func waitForQueue(
        _ address: FleetDatabaseAddress, stop: WorkerStop, log: PackageLogger, lastFailure: LastDatabaseFailure
    ) async throws -> NightQueue? {
        var delay: TimeInterval = 1
        var waits = 0
        while true {
            do {
                // One connection attempt a probe (the wait has its own back-off), then the queue with retries.
                let probe = try await NightQueue(address: address, reconnect: FleetDatabaseReconnectPolicy(attempts: 1))
                await probe.close()
                return try await NightQueue(address: address)
            } catch let error as FleetDatabaseError
                where error.kind == .connection || error.kind == .schemaMismatch || error.isTransient
            {
                waits += 1
                lastFailure.text.withLock { $0 = error.description }
                if waits == 1 || waits.isMultiple(of: 10) {
                    log.warning("waiting for the database (trying again with back-off up to 30 s): \(error)")
                }
            }
            let deadline = Date().addingTimeInterval(delay)
            while Date() < deadline {
                if await stop.isRequested { return nil }
                try? await Task.sleep(nanoseconds: 100_000_000)
            }
            delay = min(delay * 2, 30)
        }
    }

    /// The endpoint of a worker still waiting for the database: `/health` answers 200 with state `waiting` (and the
    /// last failure), `/metrics` 503.
    private static func waitingEndpoint(
        _ configuration: HTTPServerConfiguration, worker: String, lastFailure: LastDatabaseFailure
    ) throws -> HTTPServer {
        try HTTPServer(
            configuration: configuration,
            router: HTTPRouter([
                .respond(.get, "/health") { _ in
                    let health = NightWorkerHealth.waitingForDatabase(
                        worker: worker, error: lastFailure.text.withLock { $0 })
                    return .json(200, try health.jsonDocument())
                },
                .respond(.get, "/metrics") { _ in .text(503, "waiting for the database") },
            ]))
    }

    /// `host:port` of a server, an IPv6 host in brackets.
    private static func shown(_ server: HTTPServer) -> String {
        let host = server.configuration.host
        return (host.contains(":") ? "[\(host)]" : host) + ":\(server.port)"
    }

    /// `HOST:PORT` or `[IPv6]:PORT` as a server configuration.
    ///
    /// - Throws: A usage error for anything else.
    private static func metricsAddress(_ text: String) throws -> HTTPServerConfiguration {
        guard let colon = text.lastIndex(of: ":"), let port = UInt16(text[text.index(after: colon)...]) else {
            throw CommandLineError.usage("--metrics-address takes HOST:PORT (e.g. 127.0.0.1:9464), not '\(text)'")
        }
        var host = String(text[..<colon])
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        guard !host.isEmpty else { throw CommandLineError.usage("--metrics-address needs a host: 127.0.0.1:\(port)") }
        return HTTPServerConfiguration(host: host, port: port, connectionTimeout: 10, maximumConnections: 16)
    }

    private static func makeConfiguration(_ parsed: ParsedArguments) throws -> NightWorkerConfiguration {
        let licence = try CommandLineLicence.resolve(parsed)
        let levels: [String: LogLevel] = ["debug": .debug, "info": .info, "warning": .warning, "error": .error]
        let level = try parsed.choice("log-level", from: ["debug", "info", "warning", "error"], default: "info")
        let format = try parsed.choice("log-format", from: ["text", "json"], default: "text")
        let queues = (parsed.option("queue") ?? "").split(separator: ",").map {
            $0.trimmingCharacters(in: .whitespaces)
        }
        for name in queues where name.isEmpty || !name.allSatisfy({ $0.isLetter || $0.isNumber || "._-".contains($0) })
        {
            throw CommandLineError.usage("--queue takes names of letters, digits, '.', '_' and '-', not '\(name)'")
        }
        let pruneAge = try parsed.option("prune-older-than").map {
            try DurationArgument.seconds($0, option: "prune-older-than")
        }
        let pruneEvery = try parsed.option("prune-every").map {
            try DurationArgument.seconds($0, option: "prune-every")
        }
        if let pruneEvery, pruneEvery < 1 { throw CommandLineError.usage("--prune-every must be at least 1 s") }
        return NightWorkerConfiguration(
            apiKey: licence.apiKey, trustedIssuerKeys: licence.trustedKeys, name: parsed.option("name"),
            concurrency: try positive(parsed, "concurrency", default: 1, as: Int.self),
            leaseDuration: try positive(parsed, "lease-seconds", default: 60, as: Double.self),
            idlePollInterval: try positive(parsed, "poll-seconds", default: 5, as: Double.self),
            drainTimeout: try parsed.option("drain-seconds", as: Double.self).map { max(0, $0) } ?? 30,
            exitsWhenIdle: parsed.flag("exit-when-idle"), queues: queues,
            inputPolicy: try InputPolicyArgument.policy(parsed, defaultRoots: []), pruneAge: pruneAge,
            pruneInterval: pruneEvery ?? 3_600,
            storageRoot: parsed.option("storage").map { URL(fileURLWithPath: $0, isDirectory: true) },
            pace: try ReplayPaceArgument.pace(parsed), logLevel: levels[level] ?? .info,
            logger: format == "json" ? JSONLinesLogHandler() : nil)
    }

    private static func positive<T: LosslessStringConvertible & Comparable & ExpressibleByIntegerLiteral>(
        _ parsed: ParsedArguments, _ name: String, default value: T, as type: T.Type
    ) throws -> T {
        guard let given = try parsed.option(name, as: type) else { return value }
        guard given > 0 else { throw CommandLineError.usage("--\(name) must be positive, not \(given)") }
        return given
    }
}

/// The signals a worker process got, before and after its worker exists: the first asks it to drain, the second
/// to release; a signal while waiting for the database ends the wait.
actor WorkerStop {
    private var worker: NightWorker?
    private var count = 0

    /// True once a signal came.
    var isRequested: Bool { count > 0 }

    /// The `count`th signal.
    func signal(_ count: Int) async {
        self.count = count
        await worker?.stop(releasingJobs: count > 1)
    }

    /// The worker to stop; stopped at once when signals came before it existed.
    func attach(_ worker: NightWorker) async {
        self.worker = worker
        if count > 0 { await worker.stop(releasingJobs: count > 1) }
    }
}

/// Why the database could not be used yet, for the health endpoint of a worker waiting for it.
final class LastDatabaseFailure: Sendable {
    /// The last failure's description (passwords redacted), nil before the first.
    let text = Mutex<String?>(nil)
}
