// swift-tools-version:6.0
import PackageDescription

// MARK: - System libraries (Debian packages, wrapped one per target)

let systemLibraries: [Target] = [
    .systemLibrary(name: "CFFTW", pkgConfig: "fftw3f", providers: [.apt(["libfftw3-dev"])]),
    .systemLibrary(name: "CSndFile", pkgConfig: "sndfile", providers: [.apt(["libsndfile1-dev"])]),
    // Ogg Opus of channel-mapping family 0 is demultiplexed and decoded here rather than by libsndfile, whose
    // multistream decoding costs libopus 1.3 a CPU-feature probe (`cpuid`) per packet.
    .systemLibrary(name: "COgg", pkgConfig: "ogg", providers: [.apt(["libogg-dev"])]),
    .systemLibrary(name: "COpus", pkgConfig: "opus", providers: [.apt(["libopus-dev"])]),
    .systemLibrary(name: "CALSA", pkgConfig: "alsa", providers: [.apt(["libasound2-dev"])]),
    .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
    .systemLibrary(name: "CSodium", pkgConfig: "libsodium", providers: [.apt(["libsodium-dev"])]),
    .systemLibrary(name: "CSoxr", pkgConfig: "soxr", providers: [.apt(["libsoxr-dev"])]),
    // Only the fleet (SleepAnalysisFleet) links libpq: an app linking SleepAnalysis does without it.
    .systemLibrary(name: "CPostgres", pkgConfig: "libpq", providers: [.apt(["libpq-dev"])]),
    // Only the fleet links libmicrohttpd: its HTTP server (the night service, metrics and health endpoints).
    .systemLibrary(name: "CMicroHTTPD", pkgConfig: "libmicrohttpd", providers: [.apt(["libmicrohttpd-dev"])]),
    // Only the tests use it: they decode the PNG screenshots Chromium takes of the HTML night report.
    .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
]

// MARK: - Our own C: the DSP hot paths

let dspCore: Target = .target(
    name: "CSleepDSP",
    linkerSettings: [
        .linkedLibrary("fftw3f"),
        .linkedLibrary("fftw3f_threads"),
        .linkedLibrary("soxr"),
        .linkedLibrary("m"),
    ]
)

// libasound's error messages kept for our own messages instead of printed (a variadic C callback).
let alsaMessages: Target = .target(
    name: "CALSAMessages",
    dependencies: ["CALSA"],
    linkerSettings: [.linkedLibrary("asound")]
)

// MARK: - The library, the fleet, the research library, the command-line tools

// What an app links: the analysis on the device, its session store (SQLite) and slim-mode model download. No
// libpq and no remote-input downloads: those are the fleet's.
let library: Target = .target(
    name: "SleepAnalysis",
    dependencies: [
        "CSleepDSP", "CFFTW", "CSndFile", "COgg", "COpus", "CALSA", "CALSAMessages", "CSQLite", "CSodium", "CSoxr",
    ],
    resources: [.copy("../../Models")]
)

// What a service links beside it: the PostgreSQL connection (libpq), `NightQueue`, `NightWorker`, the PostgreSQL
// session-store backend, inputs from http(s) URLs and the HTTP server (libmicrohttpd). It reaches the library's
// internals through `package` declarations.
let fleet: Target = .target(
    name: "SleepAnalysisFleet",
    dependencies: ["SleepAnalysis", "CPostgres", "CMicroHTTPD"]
)

// Research code kept out of the product: evaluation on labelled data, training-feature export, stereo scene
// evaluation and benchmarks. It reaches the library's internals through `package` declarations, and is no product:
// its declarations are `package`, for the command-line tool, the benchmarks and the tests of this package only.
let evaluation: Target = .target(
    name: "SleepAnalysisEvaluation",
    dependencies: ["SleepAnalysis", "CSoxr"]
)

// The command-line parser and argument specification the three tools share (not a product: `package` access).
let commandLineKit: Target = .target(name: "CommandLineKit")

let commandLineTool: Target = .executableTarget(
    name: "sleepanalysis",
    dependencies: ["SleepAnalysis", "SleepAnalysisFleet", "SleepAnalysisEvaluation", "CommandLineKit"]
)

// Fuzz harnesses for the parsers. A normal build is a corpus runner; Tools/fuzz/run.sh builds it with
// -sanitize=fuzzer -DFUZZING into a libFuzzer binary, whose driver `CLibFuzzer` declares (nothing is linked
// from it otherwise).
let fuzzHarnesses: [Target] = [
    .systemLibrary(name: "CLibFuzzer"),
    .executableTarget(name: "sleepanalysis-fuzz", dependencies: ["SleepAnalysis", "CLibFuzzer", "CommandLineKit"]),
]

let benchmark: Target = .executableTarget(
    name: "sleepanalysis-bench",
    dependencies: ["SleepAnalysis", "SleepAnalysisFleet", "SleepAnalysisEvaluation", "CommandLineKit"]
)

// MARK: - Tests

let testSupport: Target = .target(
    name: "TestSupport",
    dependencies: ["SleepAnalysis"],
    path: "Tests/TestSupport"
)

let tests: Target = .testTarget(
    name: "SleepAnalysisTests",
    dependencies: [
        "SleepAnalysis", "SleepAnalysisFleet", "SleepAnalysisEvaluation", "TestSupport", "CSleepDSP", "CZlib",
        "CSndFile", "COgg", "CommandLineKit",
    ]
)

// MARK: - Package

let package = Package(
    name: "SleepAnalysis",
    platforms: [.macOS(.v13)],
    products: [
        .library(name: "SleepAnalysis", targets: ["SleepAnalysis"]),
        .library(name: "SleepAnalysisFleet", targets: ["SleepAnalysisFleet"]),
        .executable(name: "sleepanalysis", targets: ["sleepanalysis"]),
        .executable(name: "sleepanalysis-bench", targets: ["sleepanalysis-bench"]),
        .executable(name: "sleepanalysis-fuzz", targets: ["sleepanalysis-fuzz"]),
    ],
    targets: systemLibraries + [
        dspCore, alsaMessages, library, fleet, evaluation, commandLineKit, commandLineTool, benchmark, testSupport,
        tests,
    ] + fuzzHarnesses
)

// Every Swift target gets the same strict settings: Swift 6 mode (strict concurrency) and explicit `any`.
for target in package.targets where target.type != .system && !["CSleepDSP", "CALSAMessages"].contains(target.name) {
    var settings = target.swiftSettings ?? []
    settings.append(.swiftLanguageMode(.v6))
    settings.append(.enableUpcomingFeature("ExistentialAny"))
    target.swiftSettings = settings
}
