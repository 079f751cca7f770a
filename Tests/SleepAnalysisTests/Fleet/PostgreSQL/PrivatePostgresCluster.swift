import Foundation
import XCTest

@testable import SleepAnalysis
@testable import SleepAnalysisFleet

/// A PostgreSQL cluster of the test's own, which the test stops and starts (an outage) without disturbing the
/// shared throw-away cluster: initdb in a temporary directory, 127.0.0.1 on a free port, a random password, the
/// server as `nobody` when the tests run as root (as `Tools/postgres/with-test-cluster.sh` does). Needs the Debian
/// `postgresql` package; tests using it are skipped without `$SLEEPANALYSIS_TEST_DATABASE_URL`, like the others.
final class PrivatePostgresCluster {
    private let directory: URL
    private let bin: URL
    /// The server's port.
    let port: Int
    private let password = UUID().uuidString.replacingOccurrences(of: "-", with: "")

    /// Creates (initdb) a cluster; it is not started.
    ///
    /// - Throws: `XCTSkip` without PostgreSQL's binaries or the shared cluster's variable; an error when initdb
    ///   fails.
    init() throws {
        guard ProcessInfo.processInfo.environment[PostgresTestDatabase.variable] != nil else {
            throw XCTSkip("needs PostgreSQL: run under Tools/postgres/with-test-cluster.sh")
        }
        let versions =
            ((try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib/postgresql")) ?? [])
            .compactMap(Int.init).sorted()
        guard let version = versions.last else { throw XCTSkip("PostgreSQL's server binaries are not installed") }
        bin = URL(fileURLWithPath: "/usr/lib/postgresql/\(version)/bin")
        directory = URL(fileURLWithPath: "/tmp/sa-private-pg-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        port = Self.freePort()
        try Data((password + "\n").utf8).write(to: directory.appendingPathComponent("pwfile"))
        _ = FileManager.default.createFile(atPath: directory.appendingPathComponent("commands.log").path, contents: nil)
        if getuid() == 0 { try run(["/bin/chown", "-R", "nobody", directory.path]) }
        try run(
            [
                bin.appendingPathComponent("initdb").path, "-D", dataDirectory, "-U", "sleepanalysis",
                "--pwfile=\(directory.path)/pwfile", "--auth=scram-sha-256", "-E", "UTF8", "--no-locale",
            ], asServer: true)
    }

    deinit {
        try? stop()
        try? FileManager.default.removeItem(at: directory)
    }

    private var dataDirectory: String { directory.appendingPathComponent("data").path }

    /// The cluster's address (whether or not it is running).
    var address: FleetDatabaseAddress {
        FleetDatabaseAddress("postgresql://sleepanalysis:\(password)@127.0.0.1:\(port)/postgres?connect_timeout=2")
    }

    /// Starts the server and waits until it accepts connections.
    func start() throws {
        try run(
            [
                bin.appendingPathComponent("pg_ctl").path, "-D", dataDirectory, "-l",
                directory.appendingPathComponent("server.log").path, "-w", "-t", "60", "-o",
                "-c listen_addresses=127.0.0.1 -p \(port) -k \(directory.path) -c fsync=off", "start",
            ], asServer: true)
    }

    /// Stops the server (`fast`: connections are closed, as when a database is restarted).
    func stop() throws {
        guard FileManager.default.fileExists(atPath: dataDirectory + "/postmaster.pid") else { return }
        try run(
            [bin.appendingPathComponent("pg_ctl").path, "-D", dataDirectory, "-m", "fast", "-w", "-t", "60", "stop"],
            asServer: true)
    }

    /// Runs a command to its end, its output appended to `commands.log`. Spawned and reaped directly
    /// (`posix_spawn`, `waitpid`): `Foundation.Process` learns of a child's exit from a socket the child inherits,
    /// which the server `pg_ctl start` leaves running would hold open for ever.
    private func run(_ arguments: [String], asServer: Bool = false) throws {
        let user = asServer && getuid() == 0 ? ["/usr/sbin/runuser", "-u", "nobody", "--"] : []
        // In the cluster's directory: the server user may not enter the test's.
        let command = user + ["/bin/sh", "-c", "cd \"$0\" && exec \"$@\"", directory.path] + arguments
        let log = directory.appendingPathComponent("commands.log").path
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, log, O_WRONLY | O_CREAT | O_APPEND, 0o666)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        let argv = command.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, command[0], &actions, nil, argv, environ)
        guard spawned == 0 else {
            throw FleetDatabaseError(
                kind: .connection, message: "cannot run \(command[0]): \(String(cString: strerror(spawned)))")
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        guard status == 0 else {
            let text = (try? String(contentsOf: URL(fileURLWithPath: log), encoding: .utf8)) ?? ""
            throw FleetDatabaseError(
                kind: .connection, message: "\(arguments.first ?? "") failed (\(status)): \(text.suffix(2_000))")
        }
    }

    /// A port nothing listens on.
    private static func freePort() -> Int {
        for _ in 0..<50 {
            let port = Int.random(in: 20_000..<60_000)
            let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            defer { close(descriptor) }
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = in_port_t(UInt16(port).bigEndian)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            let bound = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            if bound == 0 { return port }
        }
        return 54_321
    }
}
