import Foundation

/// Where the repository's fixtures and the shared labelled data are, for tests.
public enum FixturePaths {
    /// The repository root (found from this file's location).
    public static let repositoryRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// `Fixtures/` at the repository root.
    public static let fixtures: URL = repositoryRoot.appendingPathComponent("Fixtures")

    /// `../shared/data` beside the repository (or `$SLEEPANALYSIS_SHARED_DATA`), or nil when it is absent.
    public static var sharedData: URL? {
        if let override = ProcessInfo.processInfo.environment["SLEEPANALYSIS_SHARED_DATA"], !override.isEmpty {
            return FileManager.default.fileExists(atPath: override) ? URL(fileURLWithPath: override) : nil
        }
        let url = repositoryRoot.deletingLastPathComponent().appendingPathComponent("shared/data")
        return FileManager.default.fileExists(atPath: url.path) ? url : nil
    }
}
