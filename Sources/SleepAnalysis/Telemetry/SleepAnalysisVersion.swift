/// The library's version, as telemetry events and the command-line tool report it.
public enum SleepAnalysisVersion {
    /// The version string (semantic versioning).
    public static let current = "0.1.0"
}
