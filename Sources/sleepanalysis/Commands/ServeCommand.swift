import CommandLineKit
import Foundation
import SleepAnalysis
import SleepAnalysisFleet

/// `sleepanalysis serve --chunks DIR [--port N] …`: the night service (HTTP) in front of the PostgreSQL queue
/// until SIGTERM or SIGINT. Prints `listening on http://HOST:PORT` once it accepts connections.
enum ServeCommand: Command {
    static let name = "serve"
    static let summary = "the night service: apps upload nights over HTTP, workers analyse them (SIGTERM stops it)"
    /// What it accepts, for help and completion.
    static var syntax: CommandSyntax { .options(specification) }

    static let specification = ArgumentSpecification(
        options: DatabaseArgument.options.union([
            "chunks", "host", "port", "trusted-keys", "max-chunk-bytes", "max-chunks",
            "rate", "burst", "timeout-seconds", "max-connections", "max-attempts", "log-level",
        ]),
        flags: ["migrate"],
        usage: """
            usage: sleepanalysis serve --chunks DIR [--database URL | --database-file FILE] [options]

            \(DatabaseArgument.usageLine)
              --chunks DIR              where uploaded chunks are kept; workers must read it at the same path
              --host ADDRESS            address to listen on (default 127.0.0.1; 0.0.0.0 or :: for all)
              --port N                  port (default 8080; 0: any free port, printed)
              --trusted-keys K1,K2      issuer public keys (base64) whose licence keys are accepted as Bearer
                                        tokens, beside $SLEEPANALYSIS_TRUSTED_KEYS; each key's subject is a tenant
              --max-chunk-bytes N       largest chunk accepted (default 67108864; 413 above it)
              --max-chunks N            chunks of one kind per session (default 10000)
              --rate R                  requests per second per tenant, on average (default 200; 429 above it)
              --burst N                 requests a tenant may make at once above the rate (default 400)
              --timeout-seconds S       close a connection silent for S seconds (default 30)
              --max-connections N       connections served at once, one thread each (default 256)
              --max-attempts N          worker attempts per night (default 5)
              --log-level LEVEL         debug, info (default), warning or error
              --migrate                 create or upgrade the queue's and the service's tables first (needs a
                                        role that may create tables); without it the service runs no DDL

            """)

    /// Serves until SIGTERM or SIGINT.
    static func run(_ arguments: [String]) async throws {
        guard let parsed = try ArgumentParser.parseUnlessHelp(arguments, specification) else { return }
        guard let chunks = parsed.option("chunks") else {
            throw CommandLineError.usage("--chunks DIR is required", usage: parsed.usage)
        }
        let http = HTTPServerConfiguration(
            host: parsed.option("host") ?? "127.0.0.1", port: try parsed.option("port", as: UInt16.self) ?? 8080,
            connectionTimeout: try positive(parsed, "timeout-seconds", default: 30),
            maximumConnections: try positive(parsed, "max-connections", default: 256))
        let configuration = NightServiceConfiguration(
            http: http, chunkDirectory: URL(fileURLWithPath: chunks, isDirectory: true),
            trustedIssuerKeys: (parsed.option("trusted-keys") ?? "").split(separator: ",").map(String.init),
            maximumChunkBytes: try positive(parsed, "max-chunk-bytes", default: 64 << 20),
            maximumChunksPerSession: try positive(parsed, "max-chunks", default: 10_000),
            requestsPerSecondPerTenant: Double(try positive(parsed, "rate", default: 200)),
            requestBurstPerTenant: try positive(parsed, "burst", default: 400),
            maximumAttempts: try positive(parsed, "max-attempts", default: 5), logLevel: try logLevel(parsed))
        let address = try DatabaseArgument.address(parsed)
        if parsed.flag("migrate") {
            try await NightQueue.migrate(address: address)
            try await NightService.migrate(address: address)
        }
        let service = try NightService(configuration: configuration, address: address)
        let (stopped, stop) = AsyncStream<Void>.makeStream()
        let signals = TerminationSignals { _ in stop.finish() }
        defer { signals.cancel() }
        let shownHost = http.host.contains(":") ? "[\(http.host)]" : http.host
        try StandardOutput.write(Data("listening on http://\(shownHost):\(service.port)\n".utf8))
        for await _ in stopped {}
        service.stop()
    }

    private static func logLevel(_ parsed: ParsedArguments) throws -> LogLevel {
        let levels: [String: LogLevel] = ["debug": .debug, "info": .info, "warning": .warning, "error": .error]
        return levels[try parsed.choice("log-level", from: ["debug", "info", "warning", "error"], default: "info")]
            ?? .info
    }

    private static func positive(_ parsed: ParsedArguments, _ name: String, default value: Int) throws -> Int {
        guard let given = try parsed.option(name, as: Int.self) else { return value }
        guard given > 0 else { throw CommandLineError.usage("--\(name) must be positive, not \(given)") }
        return given
    }
}
