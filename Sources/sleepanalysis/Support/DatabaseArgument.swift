import CommandLineKit
import Foundation
import SleepAnalysis
import SleepAnalysisFleet

/// The `--database URL` option of the fleet commands: a `postgresql://` URL or libpq `key=value` string, else
/// `$SLEEPANALYSIS_DATABASE_URL`, else libpq's own environment (`PGHOST`, …) and `~/.pgpass`.
enum DatabaseArgument {
    /// The option name, for `ArgumentSpecification.options`.
    static let option = "database"
    /// Its line in usage texts.
    static let usageLine = """
          --database URL            PostgreSQL URL (default $SLEEPANALYSIS_DATABASE_URL, else libpq's PG*
                                    variables and ~/.pgpass)
        """

    /// Opens the queue the command line names (creating or upgrading its tables).
    ///
    /// - Parameter parsed: The parsed command line.
    /// - Returns: The queue.
    /// - Throws: `FleetDatabaseError` when the database cannot be reached or migrated.
    static func openQueue(_ parsed: ParsedArguments) async throws -> NightQueue {
        try await NightQueue(address: FleetDatabaseAddress.resolve(parsed.option(option)))
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
}
