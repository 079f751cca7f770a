import Foundation

/// Where the SDK keeps its files: a state directory (licence token cache, telemetry spool) and a data directory
/// (downloaded models).
///
/// By default they follow the XDG base directories: `$XDG_STATE_HOME/sleepanalysis` (else
/// `~/.local/state/sleepanalysis`) and `$XDG_DATA_HOME/sleepanalysis` (else `~/.local/share/sleepanalysis`).
/// `initialize(..., storageDirectory:)` replaces both with `<storageDirectory>/state` and `<storageDirectory>/data`.
/// Directories are created on first use.
package struct StorageLocations: Sendable, Hashable {
    /// Licence token cache, telemetry spool.
    package let stateDirectory: URL
    /// Downloaded models.
    let dataDirectory: URL

    /// Resolves the directories from an override or the XDG environment.
    ///
    /// - Parameters:
    ///   - storageDirectory: An override for services and tests, or nil for XDG.
    ///   - environment: The process environment (injectable for tests).
    /// - Returns: The resolved locations (nothing is created yet).
    package static func resolve(
        storageDirectory: URL?, environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> StorageLocations {
        if let root = storageDirectory?.standardizedFileURL {
            return StorageLocations(
                stateDirectory: root.appendingPathComponent("state", isDirectory: true),
                dataDirectory: root.appendingPathComponent("data", isDirectory: true))
        }
        let home = URL(
            fileURLWithPath: environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory(),
            isDirectory: true)
        return StorageLocations(
            stateDirectory: xdgBase("XDG_STATE_HOME", fallback: ".local/state", home: home, environment: environment)
                .appendingPathComponent("sleepanalysis", isDirectory: true),
            dataDirectory: xdgBase("XDG_DATA_HOME", fallback: ".local/share", home: home, environment: environment)
                .appendingPathComponent("sleepanalysis", isDirectory: true))
    }

    /// An XDG base directory: the variable if it holds an absolute path (the XDG rule), else `home/fallback`.
    private static func xdgBase(_ variable: String, fallback: String, home: URL, environment: [String: String]) -> URL {
        if let value = environment[variable], value.hasPrefix("/") {
            return URL(fileURLWithPath: value, isDirectory: true)
        }
        return home.appendingPathComponent(fallback, isDirectory: true)
    }

    /// Where verified licences are cached.
    var licenseCacheDirectory: URL { stateDirectory.appendingPathComponent("license", isDirectory: true) }

    /// The default telemetry spool file.
    var telemetrySpoolFile: URL { stateDirectory.appendingPathComponent("telemetry.jsonl") }

    /// Where slim-mode models are downloaded.
    var modelsDirectory: URL { dataDirectory.appendingPathComponent("models", isDirectory: true) }

    /// Creates `directory` (and its parents) if needed and checks that it is writable.
    ///
    /// - Parameter directory: The directory to prepare.
    /// - Returns: `directory`.
    /// - Throws: `SleepCycleSdkError.storageFailure` naming the directory when it cannot be created or written.
    @discardableResult
    static func prepare(_ directory: URL) throws -> URL {
        let manager = FileManager.default
        var isDirectory: ObjCBool = false
        if manager.fileExists(atPath: directory.path, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else {
                throw SleepCycleSdkError.storageFailure("\(directory.path) exists but is not a directory")
            }
        } else {
            do {
                try manager.createDirectory(at: directory, withIntermediateDirectories: true)
            } catch {
                throw SleepCycleSdkError.storageFailure(
                    "cannot create \(directory.path): \(error.localizedDescription) "
                        + "(set XDG_STATE_HOME/XDG_DATA_HOME or pass storageDirectory: to initialize)")
            }
        }
        guard manager.isWritableFile(atPath: directory.path) else {
            throw SleepCycleSdkError.storageFailure(
                "\(directory.path) is not writable (set XDG_STATE_HOME/XDG_DATA_HOME or pass storageDirectory:)")
        }
        return directory
    }
}
