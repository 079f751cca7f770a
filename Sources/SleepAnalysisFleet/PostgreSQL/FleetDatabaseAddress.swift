import Foundation
import SleepAnalysis

/// Where a PostgreSQL database is: a `postgresql://` URL, a libpq `key=value` string, or nothing (libpq's own
/// defaults: `PGHOST`, `PGPORT`, `PGUSER`, `PGDATABASE`, `PGPASSWORD`, `~/.pgpass`, the local socket).
public struct FleetDatabaseAddress: Sendable, Hashable, CustomStringConvertible {
    /// The environment variable read when no address is given.
    public static let environmentVariable = "SLEEPANALYSIS_DATABASE_URL"

    /// The connection string handed to libpq (may hold a password; never print it, print `description`).
    let connectionString: String

    /// An address from a URL or `key=value` string; empty means libpq's defaults.
    ///
    /// - Parameter connectionString: `postgresql://user@host:5432/db?sslmode=require`, `host=… dbname=…`, or "".
    public init(_ connectionString: String) {
        self.connectionString = connectionString
    }

    /// The address given, else `$SLEEPANALYSIS_DATABASE_URL`, else libpq's defaults (its environment variables
    /// and `~/.pgpass`).
    ///
    /// - Parameters:
    ///   - given: An explicit URL or `key=value` string (a command-line option), or nil.
    ///   - environment: The environment to read (the process's by default).
    /// - Returns: The address to connect to.
    public static func resolve(
        _ given: String?, environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> FleetDatabaseAddress {
        if let given, !given.isEmpty { return FleetDatabaseAddress(given) }
        return FleetDatabaseAddress(environment[environmentVariable] ?? "")
    }

    /// The address with any password replaced by `***`, fit for messages and logs.
    public var description: String {
        connectionString.isEmpty ? "(libpq defaults)" : Self.redacted(connectionString)
    }

    /// `text` with the passwords of any PostgreSQL URLs (`user:secret@`) and `password=` settings (URL query or
    /// `key=value` form, quoted or not) replaced by `***`.
    ///
    /// - Parameter text: A connection string or a message that may contain one.
    /// - Returns: The text without passwords.
    public static func redacted(_ text: String) -> String {
        var result = text
        let patterns = [
            #"(postgres(?:ql)?://[^:/@\s]*:)[^@\s]*(@)"#,
            #"((?:^|[\s?&])password\s*=\s*)('(?:[^'\\]|\\.)*'|[^&\s]*)"#,
        ]
        for pattern in patterns {
            guard let expression = try? NSRegularExpression(pattern: pattern, options: [.caseInsensitive]) else {
                continue
            }
            let range = NSRange(result.startIndex..., in: result)
            let template = pattern.hasSuffix("(@)") ? "$1***$2" : "$1***"
            result = expression.stringByReplacingMatches(in: result, range: range, withTemplate: template)
        }
        return result
    }
}
