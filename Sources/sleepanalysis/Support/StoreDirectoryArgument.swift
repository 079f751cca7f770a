import CommandLineKit
import Foundation
import SleepAnalysis
import SleepAnalysisFleet

/// The `--store DIR` option of the store commands, with the default the SDK uses, and the PostgreSQL session store
/// the reading commands (`history`, `export`) open instead with `--database URL` or `--subject ID`.
enum StoreDirectoryArgument {
    /// The option name, for `ArgumentSpecification.options`.
    static let option = "store"
    /// The options of a reading command: `--store DIR`, or `--database URL` and `--subject ID`.
    static let readingOptions: Set<String> = [
        option, DatabaseArgument.option, DatabaseArgument.fileOption, subjectOption,
    ]
    /// The subject option's name.
    static let subjectOption = "subject"
    /// The reading options' lines in usage texts.
    static let readingUsageLines = """
          -s, --store DIR          the session store (default $XDG_DATA_HOME/sleepanalysis, else
                                   ~/.local/share/sleepanalysis)
              --database URL       read the PostgreSQL session store instead (fleet nights; default
                                   $SLEEPANALYSIS_DATABASE_URL, else libpq's PG* variables and ~/.pgpass)
              --database-file FILE a file holding that URL (default $SLEEPANALYSIS_DATABASE_URL_FILE)
              --subject ID         whose nights, in the PostgreSQL store (required with it; alone, it
                                   reads the store at $SLEEPANALYSIS_DATABASE_URL)
        """

    /// The flag of the commands that save a night (`analyze`, `record`) to save nothing.
    static let noStoreFlag = "no-store"

    /// Where a command that saves its night saves it: `--store DIR`, else the default store; nil with `--no-store`.
    ///
    /// - Parameter parsed: The parsed command line.
    /// - Returns: The store directory, or nil.
    /// - Throws: a usage `CommandLineError` when both `--store` and `--no-store` are given.
    static func savingDirectory(_ parsed: ParsedArguments) throws -> URL? {
        guard parsed.flag(noStoreFlag) else { return directory(parsed) }
        guard parsed.option(option) == nil else {
            throw CommandLineError.usage("give --store DIR or --no-store, not both")
        }
        return nil
    }

    /// The store directory: `--store DIR` if given, else the default.
    ///
    /// - Parameter parsed: The parsed command line.
    /// - Returns: The directory.
    static func directory(_ parsed: ParsedArguments) -> URL {
        parsed.option(option).map { URL(fileURLWithPath: $0, isDirectory: true) } ?? defaultDirectory()
    }

    /// The default store directory: `$XDG_DATA_HOME/sleepanalysis`, else `~/.local/share/sleepanalysis`.
    ///
    /// - Parameter environment: The process environment.
    /// - Returns: The directory.
    static func defaultDirectory(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        SessionStore.defaultDirectory(environment: environment)
    }

    /// Warns on standard error about stored nights that could not be read and were left out.
    ///
    /// - Parameter unreadable: The skipped rows.
    static func warn(skipping unreadable: [UnreadableNight]) {
        for night in unreadable {
            CommandRunner.printError("sleepanalysis: warning: skipped an unreadable \(night)\n")
        }
    }

    /// Opens the store for reading only (so a store in a read-only directory or file can be read), refusing to
    /// create one where the user expects to read one.
    ///
    /// - Parameter parsed: The parsed command line.
    /// - Returns: The store.
    /// - Throws: `CommandLineError` when no store exists there; `SleepCycleSdkError` when it cannot be opened.
    static func openExisting(_ parsed: ParsedArguments) throws -> SessionStore {
        if let store = try openPostgreSQL(parsed) { return store }
        let directory = directory(parsed)
        let file = directory.appendingPathComponent(SessionStore.fileName)
        guard FileManager.default.fileExists(atPath: file.path) else {
            throw CommandLineError(
                kind: .failure, message: "no session store at \(directory.path) (use --store DIR)", usage: nil)
        }
        return try SessionStore(readingFrom: directory)
    }

    /// Opens the PostgreSQL session store of `--subject ID` when `--database URL` or `--subject ID` is given (the
    /// address from `--database`, else `$SLEEPANALYSIS_DATABASE_URL`, else libpq's defaults).
    ///
    /// - Parameter parsed: The parsed command line.
    /// - Returns: The store, or nil when neither option is given (the SQLite store is meant).
    /// - Throws: A usage `CommandLineError` for `--database` without `--subject` or with `--store`;
    ///   `SleepCycleSdkError.storageFailure` when the database cannot be reached (the message shows no password).
    private static func openPostgreSQL(_ parsed: ParsedArguments) throws -> SessionStore? {
        let database = parsed.option(DatabaseArgument.option) ?? parsed.option(DatabaseArgument.fileOption)
        let subject = parsed.option(subjectOption)
        guard database != nil || subject != nil else { return nil }
        guard parsed.option(option) == nil else {
            throw CommandLineError.usage("choose --store DIR or --database URL, not both", usage: parsed.usage)
        }
        guard let subject, !subject.isEmpty else {
            throw CommandLineError.usage(
                "--database needs --subject ID: the PostgreSQL store keeps each subject's nights", usage: parsed.usage)
        }
        return try SessionStore(address: DatabaseArgument.address(parsed), subject: subject)
    }
}
