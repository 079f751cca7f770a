import Foundation

/// Feeds files to a harness outside libFuzzer: the seed corpus and the crash regressions in the normal build and
/// test suite, and any single input when reproducing a crash.
enum CorpusRunner {
    /// Why a run could not start.
    enum Failure: Error, CustomStringConvertible {
        /// A path that does not exist.
        case missing(String)

        var description: String {
            switch self {
            case .missing(let path): "\(path): no such file or directory"
            }
        }
    }

    /// How many inputs a run fed and how many a parser accepted.
    struct Tally {
        /// Inputs run.
        var inputs = 0
        /// Inputs a parser accepted (the others were rejected with a documented error).
        var accepted = 0
    }

    /// Runs `harness` on every file among `paths` (folders are searched recursively; hidden files and
    /// `README.md` are skipped). Each file is named on standard error before it runs, so that a trap names its
    /// input, and on standard output after it, as `accepted` or `rejected`, a tab and its path.
    ///
    /// - Returns: The tally.
    /// - Throws: `Failure.missing` for a path that does not exist, before any input runs.
    static func run(_ harness: FuzzHarness, on paths: [String]) throws -> Tally {
        let files = try inputFiles(paths)
        defer { ScratchDirectory.remove() }
        var tally = Tally()
        for file in files {
            FileHandle.standardError.write(Data("\(harness.name): \(file.path)\n".utf8))
            let data = try Data(contentsOf: file)
            let accepted = data.withUnsafeBytes { harness.run($0) }
            print("\(accepted ? "accepted" : "rejected")\t\(file.path)")
            tally.inputs += 1
            tally.accepted += accepted ? 1 : 0
        }
        return tally
    }

    /// The files among `paths`, folders expanded, each list in name order.
    static func inputFiles(_ paths: [String]) throws -> [URL] {
        var files: [URL] = []
        for path in paths {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                throw Failure.missing(path)
            }
            guard isDirectory.boolValue else {
                files.append(URL(fileURLWithPath: path))
                continue
            }
            let folder = URL(fileURLWithPath: path, isDirectory: true)
            let enumerator = FileManager.default.enumerator(
                at: folder, includingPropertiesForKeys: [.isRegularFileKey], options: [.skipsHiddenFiles])
            var found: [URL] = []
            while let url = enumerator?.nextObject() as? URL {
                let isFile = (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) ?? false
                if isFile, url.lastPathComponent != "README.md" { found.append(url) }
            }
            files += found.sorted { $0.path < $1.path }
        }
        return files
    }
}
