/// The library's version, as telemetry events and the command-line tool report it.
///
/// Semantic versioning (semver.org): a release that removes or changes public API raises the major version, one
/// that adds API the minor version, a fix the patch version. `CHANGELOG.md` lists every release's changes, and CI
/// compares the public API with the baseline in `API/` (`Tools/api/check.sh`).
public enum SleepAnalysisVersion {
    /// The version string, e.g. `1.0.0-beta.1`.
    public static let current = "1.0.0-beta.1"
}
