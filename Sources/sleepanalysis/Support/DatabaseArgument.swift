import CommandLineKit
import Foundation
import SleepAnalysis
import SleepAnalysisFleet

/// `--database URL` and `--database-file FILE`, shared by the commands that reach PostgreSQL.
enum DatabaseArgument {
    /// The option name, for `ArgumentSpecification.options`.
    static let option = "database"
    /// The option naming a file that holds the URL.
    static let fileOption = "database-file"
    /// The variable naming a file that holds the URL (for systemd credentials and secret mounts).
    static let fileVariable = "SLEEPANALYSIS_DATABASE_URL_FILE"
    /// Both options, for `ArgumentSpecification.options`.
    static let options: Set<String> = [option, fileOption]
    /// Its lines in usage texts.
    static let usageLine = """
          --database URL            PostgreSQL URL (default $SLEEPANALYSIS_DATABASE_URL, else libpq's PG*
                                    variables and ~/.pgpass); a password here shows in `ps`: prefer
          --database-file FILE      a file holding the URL (default $SLEEPANALYSIS_DATABASE_URL_FILE)
        """

    /// The address the command line names: `--database`, else `--database-file`, else
    /// `$SLEEPANALYSIS_DATABASE_URL`, else `$SLEEPANALYSIS_DATABASE_URL_FILE`, else libpq's defaults. Warns on
    /// standard error when `--database` holds a password (other users see it in `ps`).
    ///
    /// - Parameters:
    ///   - parsed: The parsed command line.
    ///   - environment: The environment.
    /// - Returns: The address.
    /// - Throws: A bad-data `CommandLineError` when the file cannot be read or is empty.
    static func address(
        _ parsed: ParsedArguments, environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws -> FleetDatabaseAddress {
        if let given = parsed.option(option), !given.isEmpty {
            if FleetDatabaseAddress.redacted(given) != given {
                CommandRunner.printError(
                    "sleepanalysis: warning: --database holds a password, which other users can read in `ps`; "
                        + "use $SLEEPANALYSIS_DATABASE_URL, --database-file or ~/.pgpass\n")
            }
            return FleetDatabaseAddress(given)
        }
        if let file = parsed.option(fileOption) { return try read(file) }
        if let url = environment[FleetDatabaseAddress.environmentVariable], !url.isEmpty {
            return FleetDatabaseAddress(url)
        }
        if let file = environment[fileVariable], !file.isEmpty { return try read(file) }
        return FleetDatabaseAddress("")
    }

    /// The URL in `path`: its first line, trimmed.
    private static func read(_ path: String) throws -> FleetDatabaseAddress {
        let text: String
        do {
            text = try String(contentsOf: URL(fileURLWithPath: path), encoding: .utf8)
        } catch {
            throw CommandLineError.badData("cannot read the database URL from \(path): \(error.localizedDescription)")
        }
        let url =
            text.split(whereSeparator: \.isNewline).first.map(String.init)?
            .trimmingCharacters(in: .whitespaces) ?? ""
        guard !url.isEmpty else { throw CommandLineError.badData("\(path) holds no database URL") }
        return FleetDatabaseAddress(url)
    }

    /// Opens the queue the command line names (checking its tables' version; no DDL).
    ///
    /// - Parameter parsed: The parsed command line.
    /// - Returns: The queue.
    /// - Throws: `FleetDatabaseError` when the database cannot be reached or is not migrated.
    static func openQueue(_ parsed: ParsedArguments) async throws -> NightQueue {
        try await NightQueue(address: address(parsed))
    }

    /// The job identifier in positional `index`.
    ///
    /// - Throws: a usage `CommandLineError` when it is not a positive integer.
    static func jobId(_ parsed: ParsedArguments, at index: Int = 0) throws -> Int64 {
        guard let id = Int64(parsed.positionals[index]), id > 0 else {
            throw CommandLineError.usage("'\(parsed.positionals[index])' is not a job id", usage: parsed.usage)
        }
        return id
    }

    /// The exit status for a database failure: 69 (`EX_UNAVAILABLE`) when the database cannot be reached or its
    /// tables are not this version's, 77 (`EX_NOPERM`) when it refuses the login or the role lacks a right, 1 for
    /// anything else.
    ///
    /// - Parameter error: The failure.
    /// - Returns: The exit status.
    static func exitCode(for error: FleetDatabaseError) -> Int32 {
        if error.kind == .authentication || error.isPermissionDenied { return 77 }
        if error.kind == .connection || error.kind == .schemaMismatch || error.isTransient { return 69 }
        return 1
    }
}
