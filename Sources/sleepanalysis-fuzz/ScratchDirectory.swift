import Foundation

/// A per-process directory where harnesses write an input for parsers that read files.
///
/// It lives under `SLEEPANALYSIS_FUZZ_SCRATCH` when set (`Tools/fuzz/run.sh` points it into its scratch folder),
/// else under `/dev/shm` when there is one (no disk writes at thousands of inputs a second), else the temporary
/// directory.
enum ScratchDirectory {
    /// The environment variable naming the parent of the scratch directory.
    static let variable = "SLEEPANALYSIS_FUZZ_SCRATCH"

    /// This process's directory, created on first use.
    static let url: URL = {
        let environment = ProcessInfo.processInfo.environment
        let parent: URL
        if let chosen = environment[variable], !chosen.isEmpty {
            parent = URL(fileURLWithPath: chosen, isDirectory: true)
        } else if FileManager.default.isWritableFile(atPath: "/dev/shm") {
            parent = URL(fileURLWithPath: "/dev/shm", isDirectory: true)
        } else {
            parent = FileManager.default.temporaryDirectory
        }
        let url = parent.appendingPathComponent("sleepanalysis-fuzz-\(getpid())", isDirectory: true)
        do {
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        } catch {
            fatalError("cannot create the scratch directory \(url.path): \(error)")
        }
        return url
    }()

    /// Writes `bytes` to the file `name` in the scratch directory, replacing it, and returns its URL.
    static func write(_ bytes: UnsafeRawBufferPointer, named name: String) -> URL {
        let file = url.appendingPathComponent(name)
        do {
            try Data(bytes).write(to: file)
        } catch {
            fatalError("cannot write the input to \(file.path): \(error)")
        }
        return file
    }

    /// Removes the scratch directory (the corpus runner calls this when it is done).
    static func remove() {
        try? FileManager.default.removeItem(at: url)
    }
}
