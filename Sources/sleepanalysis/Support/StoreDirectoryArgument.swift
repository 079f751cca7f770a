import Foundation
import SleepAnalysis

/// The `--store DIR` option of the store commands, with the default the SDK uses.
enum StoreDirectoryArgument {
    /// The option name, for `ArgumentSpecification.options`.
    static let option = "store"

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
            FileHandle.standardError.write(Data("sleepanalysis: warning: skipped an unreadable \(night)\n".utf8))
        }
    }

    /// Opens the store for reading only (so a store in a read-only directory or file can be read), refusing to
    /// create one where the user expects to read one.
    ///
    /// - Parameter parsed: The parsed command line.
    /// - Returns: The store.
    /// - Throws: `CommandLineError` when no store exists there; `SleepCycleSdkError` when it cannot be opened.
    static func openExisting(_ parsed: ParsedArguments) throws -> SessionStore {
        let directory = directory(parsed)
        let file = directory.appendingPathComponent(SessionStore.fileName)
        guard FileManager.default.fileExists(atPath: file.path) else {
            throw CommandLineError(
                kind: .failure, message: "no session store at \(directory.path) (use --store DIR)", usage: nil)
        }
        return try SessionStore(readingFrom: directory)
    }
}
