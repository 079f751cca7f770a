import Foundation
import TestSupport
import XCTest

/// Runs every fuzz harness of `sleepanalysis-fuzz` (normal build: the corpus runner) over its seed corpus and its
/// crash regressions in `Tools/fuzz/`. No input may trap, hang or be rejected with an undocumented error; seeds
/// named `bad_…` must be rejected and all other seeds accepted, so the corpus keeps reaching past each parser's
/// first checks.
final class FuzzCorpusTests: XCTestCase {
    private static let fuzzFolder = FixturePaths.repositoryRoot.appendingPathComponent("Tools/fuzz")
    private static let corpus = fuzzFolder.appendingPathComponent("corpus")
    private static let regressions = fuzzFolder.appendingPathComponent("regressions")

    /// The harnesses `sleepanalysis-fuzz list` names and the corpus folders are the same set; regression folders
    /// belong to harnesses.
    func test_every_harness_has_a_seed_corpus_folder_and_every_folder_a_harness() throws {
        let listed = try runCommandLineTool(["list"], tool: "sleepanalysis-fuzz")
        XCTAssertEqual(listed.status, 0, listed.standardError)
        let harnesses = listed.standardOutput.split(separator: "\n").map { String($0.prefix { $0 != "\t" }) }
        XCTAssertEqual(Set(harnesses), Set(try Self.folders(in: Self.corpus)))
        XCTAssertTrue(Set(try Self.folders(in: Self.regressions)).isSubset(of: Set(harnesses)))
    }

    /// Every seed runs cleanly; the parsers accept the valid seeds and reject the `bad_…` ones.
    func test_seed_corpus_runs_without_failure_and_only_bad_seeds_are_rejected() throws {
        for harness in try Self.folders(in: Self.corpus) {
            let folder = Self.corpus.appendingPathComponent(harness)
            let verdicts = try Self.run(harness, on: folder)
            XCTAssertFalse(verdicts.isEmpty, "\(harness): no seeds")
            for (path, accepted) in verdicts {
                let isBad = URL(fileURLWithPath: path).lastPathComponent.hasPrefix("bad_")
                XCTAssertEqual(accepted, !isBad, "\(harness): \(path) was \(accepted ? "accepted" : "rejected")")
            }
        }
    }

    /// Every input that once crashed, hung or exhausted memory now runs cleanly.
    func test_crash_regressions_run_without_failure() throws {
        for harness in try Self.folders(in: Self.regressions) {
            let verdicts = try Self.run(harness, on: Self.regressions.appendingPathComponent(harness))
            XCTAssertFalse(verdicts.isEmpty, "\(harness): an empty regressions folder")
        }
    }

    /// Runs one harness over a folder; returns each input's path and whether it was accepted, after checking
    /// that the run finished cleanly.
    private static func run(_ harness: String, on folder: URL) throws -> [String: Bool] {
        let output = try runCommandLineTool(["run", harness, folder.path], timeout: 120, tool: "sleepanalysis-fuzz")
        XCTAssertEqual(
            output.status, 0, "\(harness) failed; the last input named is the culprit:\n\(output.standardError)")
        var verdicts: [String: Bool] = [:]
        for line in output.standardOutput.split(separator: "\n") {
            let fields = line.split(separator: "\t", maxSplits: 1)
            guard fields.count == 2 else { continue }
            verdicts[String(fields[1])] = fields[0] == "accepted"
        }
        return verdicts
    }

    /// The names of the folders directly in `url` (none when it does not exist).
    private static func folders(in url: URL) throws -> [String] {
        guard FileManager.default.fileExists(atPath: url.path) else { return [] }
        return try FileManager.default.contentsOfDirectory(at: url, includingPropertiesForKeys: [.isDirectoryKey])
            .filter { (try? $0.resourceValues(forKeys: [.isDirectoryKey]).isDirectory) == true }
            .map(\.lastPathComponent).sorted()
    }
}
