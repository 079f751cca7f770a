import Foundation

/// Where the library's bundled resources (the `Models/` folder) are, for a binary run from its build folder or
/// installed on its own (`Tools/install.sh`).
///
/// SwiftPM's generated `Bundle.module` ends the process (`Swift.fatalError`) when its bundle is neither beside
/// the main executable nor in the build folder the library was compiled in, so it is not used: these places are
/// looked at instead, in order, and a missing folder is a typed error where a model is needed.
/// 1. beside the executable (its real path, symbolic links resolved): `SleepAnalysis_SleepAnalysis.resources/
///    Models`, where SwiftPM puts the bundle in the build folder (so `swift run` and the tests find it);
/// 2. `../share/sleepanalysis/Models` from the executable's folder, the layout of `Tools/install.sh PREFIX`
///    (`PREFIX/bin/sleepanalysis`, `PREFIX/share/sleepanalysis/Models`);
/// 3. `SleepAnalysis_SleepAnalysis.resources/Models` beside `Bundle.main` (the process's main bundle, when it is
///    not the executable's folder).
enum BundledResources {
    /// The name of SwiftPM's resource bundle of the library target.
    static let bundleName = "SleepAnalysis_SleepAnalysis.resources"

    /// The folders looked at for `Models/`, in order.
    ///
    /// - Parameter executable: The running executable's path (symbolic links are resolved).
    /// - Returns: The candidate `Models` folders.
    static func candidates(executable: URL? = runningExecutable) -> [URL] {
        var folders: [URL] = []
        if let binFolder = executable?.resolvingSymlinksInPath().deletingLastPathComponent() {
            folders.append(binFolder.appendingPathComponent(bundleName).appendingPathComponent("Models"))
            folders.append(
                binFolder.deletingLastPathComponent().appendingPathComponent("share/sleepanalysis/Models")
                    .standardizedFileURL)
        }
        let main = Bundle.main.bundleURL.appendingPathComponent(bundleName).appendingPathComponent("Models")
        if !folders.contains(main) { folders.append(main) }
        return folders
    }

    /// The first candidate that is a folder, or nil when none is.
    static let modelsDirectory: URL? = candidates().first { url in
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) && isDirectory.boolValue
    }

    /// The bundled model file `name`, or a typed error naming where the models were looked for.
    ///
    /// - Parameter name: The file name in `Models/` (`events.bin`).
    /// - Returns: The file.
    /// - Throws: `SleepCycleSdkError.modelUnavailable` when no models folder or no such file was found.
    static func model(_ name: String) throws -> URL {
        guard let directory = modelsDirectory else { throw noModelsFolder(name) }
        let file = directory.appendingPathComponent(name)
        guard FileManager.default.fileExists(atPath: file.path) else {
            throw SleepCycleSdkError.modelUnavailable("\(name): not in \(directory.path)")
        }
        return file
    }

    /// The error for a model needed when no models folder was found: it names the places looked in.
    ///
    /// - Parameter name: The model's name or file name.
    /// - Returns: `SleepCycleSdkError.modelUnavailable`.
    static func noModelsFolder(_ name: String) -> SleepCycleSdkError {
        let places = candidates().map(\.path).joined(separator: ", ")
        return .modelUnavailable("\(name): no bundled models folder (looked in \(places))")
    }

    /// The running executable: `/proc/self/exe` on Linux, else the main bundle's executable.
    static var runningExecutable: URL? {
        #if os(Linux)
            return URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        #else
            return Bundle.main.executableURL
        #endif
    }
}
