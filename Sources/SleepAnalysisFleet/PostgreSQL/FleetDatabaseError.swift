import Foundation
import SleepAnalysis

/// A failure talking to PostgreSQL: what went wrong, PostgreSQL's SQLSTATE when the server gave one, and whether
/// trying again later may succeed.
///
/// Messages never hold a password: connection addresses in them are redacted (`FleetDatabaseAddress.redacted`).
public struct FleetDatabaseError: Error, Sendable, Hashable, CustomStringConvertible, LocalizedError {
    /// The kinds of failure.
    public enum Kind: String, Sendable, Hashable {
        /// No connection could be made, or the connection broke.
        case connection
        /// The server refused a statement (syntax, constraint, permission, …); `sqlState` says which.
        case statement
        /// The server answered something this library does not expect (a missing column, a value that does not
        /// parse, a schema written by a newer version).
        case unexpectedResult
        /// The server refused the login (wrong password, unknown role or database, no `pg_hba.conf` entry): trying
        /// again with the same address cannot help, so it is reported once, not retried.
        case authentication
        /// The database's schema is not the version this library uses: missing or older (run
        /// `sleepanalysis queue migrate` as the owner), or newer (upgrade this program).
        case schemaMismatch
    }

    /// The kind of failure.
    public let kind: Kind
    /// The five-character SQLSTATE code (`23505` unique violation, `40P01` deadlock, …), when the server sent one.
    public let sqlState: String?
    /// What failed and why, without any password.
    public let message: String

    /// Creates an error.
    ///
    /// - Parameters:
    ///   - kind: The kind of failure.
    ///   - sqlState: The SQLSTATE code, if any.
    ///   - message: What failed and why (must already be free of passwords).
    public init(kind: Kind, sqlState: String? = nil, message: String) {
        self.kind = kind
        self.sqlState = sqlState
        self.message = message
    }

    /// True when the same call may succeed later: a lost or refused connection, a serialization failure or
    /// deadlock (`40001`, `40P01`), a server short of resources (class `53`), shutting down (`57P01`…`57P03`) or
    /// a lock that was not available (`55P03`).
    public var isTransient: Bool {
        switch kind {
        case .connection: return true
        case .authentication, .schemaMismatch: return false
        case .statement, .unexpectedResult: break
        }
        guard let sqlState else { return false }
        return sqlState.hasPrefix("08") || sqlState.hasPrefix("53") || sqlState.hasPrefix("57P")
            || ["40001", "40P01", "55P03"].contains(sqlState)
    }

    /// True when the server refused a statement for want of a privilege (SQLSTATE `42501`, including a row-level
    /// security policy): the role lacks the right, e.g. a worker's role cancelling a job.
    public var isPermissionDenied: Bool { sqlState == "42501" }

    /// A message for logs and users.
    public var description: String {
        "PostgreSQL \(kind.rawValue) failure" + (sqlState.map { " (SQLSTATE \($0))" } ?? "") + ": " + message
    }

    /// The message a person needs (`localizedDescription` gives the same).
    public var errorDescription: String? { description }
}
