import Foundation

/// One parser's fuzz target: a name to select it by and a function that feeds it one input and says whether a
/// parser accepted it (the corpus test checks that valid seeds are accepted and `bad_` seeds rejected).
///
/// `run` must return for every input: a parser may reject the bytes with its documented error, but a trap, a
/// hang or an error of another kind is a bug, which the harness turns into a trap (`FuzzContract`) so that
/// libFuzzer and the corpus runner see it.
struct FuzzHarness: Sendable {
    /// The name on the command line, in `SLEEPANALYSIS_FUZZ_HARNESS` and as the corpus folder's name.
    let name: String
    /// What the harness feeds, for `sleepanalysis-fuzz list`.
    let summary: String
    /// Feeds one input to the parser; true when it (or one of the parsers the harness feeds) accepted it.
    let run: @Sendable (UnsafeRawBufferPointer) -> Bool

    /// Every harness, in the order `Tools/fuzz/run.sh all` runs them.
    static let all: [FuzzHarness] = [
        AudioFileHarness.harness,
        SensorCSVHarness.harness,
        LicenseKeyHarness.harness,
        EventModelHarness.harness,
        StagingModelHarness.harness,
        ModelManifestHarness.harness,
        ISO8601IntervalHarness.harness,
        NightServiceHarness.harness,
    ]

    /// The harness called `name`, or nil.
    static func named(_ name: String) -> FuzzHarness? { all.first { $0.name == name } }
}
