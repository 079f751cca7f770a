import CPostgres
import Foundation
import SleepAnalysis

/// One libpq connection: parameterised statements (`PQexecParams`, text format), transactions and
/// notifications.
///
/// Not `Sendable`: only `PostgresDatabase` holds one and uses it on its own queue; calls block.
final class PostgresConnection {
    private let handle: OpaquePointer
    /// The address, for messages (passwords redacted).
    let address: FleetDatabaseAddress

    /// Connects to `address`, waiting at most `timeoutSeconds`.
    ///
    /// - Parameters:
    ///   - address: Where the database is.
    ///   - timeoutSeconds: libpq's `connect_timeout`, unless the address sets its own.
    /// - Throws: `FleetDatabaseError` (`connection`) when the server cannot be reached or refuses the login.
    init(address: FleetDatabaseAddress, timeoutSeconds: Int = 10) throws {
        self.address = address
        // Later keywords override earlier ones: the address (expanded by `expand_dbname`) wins over our defaults.
        let keywords = ["connect_timeout", "fallback_application_name", "dbname"]
        let values = [String(timeoutSeconds), "sleepanalysis", address.connectionString]
        let connection = Self.withCStrings(keywords) { keywordPointers in
            Self.withCStrings(values) { valuePointers in PQconnectdbParams(keywordPointers, valuePointers, 1) }
        }
        guard let connection else {
            throw FleetDatabaseError(kind: .connection, message: "out of memory connecting to \(address)")
        }
        guard PQstatus(connection) == CONNECTION_OK else {
            let reason = Self.message(of: connection)
            let refusedLogin = Self.isLoginRefusal(reason)
            PQfinish(connection)
            throw FleetDatabaseError(
                kind: refusedLogin ? .authentication : .connection, message: "cannot connect to \(address): \(reason)")
        }
        // Server notices ("relation … already exists, skipping") would go to standard error: drop them.
        PQsetNoticeProcessor(connection, { _, _ in }, nil)
        handle = connection
    }

    deinit {
        PQfinish(handle)
    }

    /// False once the connection has broken (the server went away, the network failed).
    var isUsable: Bool { PQstatus(handle) == CONNECTION_OK }

    /// Runs one statement with `$1`, `$2`, … placeholders.
    ///
    /// - Parameters:
    ///   - sql: One SQL statement.
    ///   - parameters: The placeholders' values in text format, nil for NULL.
    /// - Returns: The rows and the number of rows changed.
    /// - Throws: `FleetDatabaseError`: `statement` with the SQLSTATE when the server refuses it, `connection` when
    ///   the connection broke.
    @discardableResult
    func execute(_ sql: String, _ parameters: [PostgresParameter] = []) throws -> PostgresResult {
        let result = Self.withOptionalCStrings(parameters) { pointers in
            PQexecParams(handle, sql, Int32(parameters.count), nil, pointers, nil, nil, 0)
        }
        guard let result else {
            throw FleetDatabaseError(kind: isUsable ? .statement : .connection, message: failure(running: sql))
        }
        defer { PQclear(result) }
        let status = PQresultStatus(result)
        guard status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK else {
            let sqlState = PQresultErrorField(result, Int32(UInt8(ascii: "C"))).map { String(cString: $0) }
            let kind: FleetDatabaseError.Kind = isUsable ? .statement : .connection
            throw FleetDatabaseError(kind: kind, sqlState: sqlState, message: failure(running: sql))
        }
        return PostgresResult(rows: Self.rows(of: result), affectedRows: Int(String(cString: PQcmdTuples(result))) ?? 0)
    }

    /// Runs `body` in a transaction: `BEGIN`, then `COMMIT` when it returns, `ROLLBACK` when it throws.
    ///
    /// - Parameter body: The work; it must not begin or end transactions itself.
    /// - Returns: What `body` returns.
    /// - Throws: What `body` throws, or `FleetDatabaseError` when beginning or committing fails.
    func transaction<T>(_ body: (PostgresConnection) throws -> T) throws -> T {
        try execute("BEGIN")
        let value: T
        do {
            value = try body(self)
        } catch {
            if isUsable { _ = try? execute("ROLLBACK") }
            throw error
        }
        try execute("COMMIT")
        return value
    }

    /// Quotes an identifier (a channel or table name) for the few statements that cannot take parameters
    /// (`LISTEN`).
    ///
    /// - Throws: `FleetDatabaseError` when libpq cannot quote it (invalid encoding).
    func quotedIdentifier(_ name: String) throws -> String {
        guard let quoted = PQescapeIdentifier(handle, name, name.utf8.count) else {
            throw FleetDatabaseError(kind: .statement, message: "cannot quote '\(name)': \(Self.message(of: handle))")
        }
        defer { PQfreemem(quoted) }
        return String(cString: quoted)
    }

    /// The notifications that have arrived, waiting up to `timeout` seconds for the first when none is pending.
    ///
    /// - Parameter timeout: How long to wait; 0 only collects what has arrived.
    /// - Returns: The notifications, oldest first (empty after the timeout).
    /// - Throws: `FleetDatabaseError` (`connection`) when the connection broke.
    func notifications(waitingUpTo timeout: TimeInterval) throws -> [PostgresNotification] {
        var received = try drainNotifications()
        guard received.isEmpty, timeout > 0 else { return received }
        var descriptor = pollfd(fd: PQsocket(handle), events: Int16(POLLIN), revents: 0)
        guard descriptor.fd >= 0 else {
            throw FleetDatabaseError(kind: .connection, message: "no connection to \(address)")
        }
        let ready = poll(&descriptor, 1, Int32(min(timeout, 3_600) * 1_000))
        if ready < 0 && errno != EINTR {
            throw FleetDatabaseError(
                kind: .connection, message: "waiting on \(address): \(String(cString: strerror(errno)))")
        }
        received = try drainNotifications()
        return received
    }

    // MARK: - Helpers

    /// True when a failed connection's message is the server refusing the login rather than being unreachable:
    /// a wrong or missing password, an unknown role or database, no `pg_hba.conf` entry (SQLSTATE classes 28 and
    /// 3D, which libpq only reports as text; servers running with a translated `lc_messages` are not recognised and
    /// their refusals are retried like an outage).
    static func isLoginRefusal(_ message: String) -> Bool {
        let text = message.lowercased()
        let phrases = [
            "authentication failed", "no pg_hba.conf entry", "no password supplied", "password authentication",
            "permission denied for database", "pg_hba.conf rejects",
        ]
        if phrases.contains(where: text.contains) { return true }
        return text.contains("does not exist") && (text.contains("role \"") || text.contains("database \""))
    }

    private func drainNotifications() throws -> [PostgresNotification] {
        guard PQconsumeInput(handle) == 1 else {
            throw FleetDatabaseError(kind: .connection, message: "reading from \(address): \(Self.message(of: handle))")
        }
        var received: [PostgresNotification] = []
        while let notice = PQnotifies(handle) {
            received.append(
                PostgresNotification(
                    channel: String(cString: notice.pointee.relname),
                    payload: notice.pointee.extra.map { String(cString: $0) } ?? ""))
            PQfreemem(notice)
        }
        return received
    }

    private func failure(running sql: String) -> String {
        let statement = sql.split(whereSeparator: \.isNewline).first.map(String.init) ?? sql
        return "\(Self.message(of: handle)) (running \(statement.trimmingCharacters(in: .whitespaces)) on \(address))"
    }

    private static func message(of connection: OpaquePointer) -> String {
        let text = PQerrorMessage(connection).map { String(cString: $0) } ?? "unknown error"
        return FleetDatabaseAddress.redacted(text.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    private static func rows(of result: OpaquePointer) -> [PostgresRow] {
        let rowCount = PQntuples(result)
        let columnCount = PQnfields(result)
        var rows: [PostgresRow] = []
        rows.reserveCapacity(Int(rowCount))
        for row in 0..<rowCount {
            var values: [String?] = []
            values.reserveCapacity(Int(columnCount))
            for column in 0..<columnCount {
                values.append(
                    PQgetisnull(result, row, column) == 1 ? nil : String(cString: PQgetvalue(result, row, column)))
            }
            rows.append(PostgresRow(values: values))
        }
        return rows
    }

    /// Calls `body` with a NULL-terminated array of C strings that live for the call.
    private static func withCStrings<T>(
        _ strings: [String], _ body: (UnsafePointer<UnsafePointer<CChar>?>) -> T
    ) -> T {
        withOptionalCStrings(strings.map(Optional.some) + [nil], body)
    }

    /// Calls `body` with an array of C strings (NULL for nil) that live for the call.
    private static func withOptionalCStrings<T>(
        _ strings: [String?], _ body: (UnsafePointer<UnsafePointer<CChar>?>) -> T
    ) -> T {
        let copies = strings.map { $0.map { strdup($0) } ?? nil }
        defer { copies.forEach { free($0) } }
        let pointers = copies.map { $0.map { UnsafePointer($0) } }
        return pointers.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else {
                var none: UnsafePointer<CChar>? = nil
                return body(&none)
            }
            return body(base)
        }
    }
}

/// A `NOTIFY` received on a channel the connection listens on.
struct PostgresNotification: Sendable, Hashable {
    /// The channel.
    var channel: String
    /// The payload ("" when none was sent).
    var payload: String
}
