import Foundation
import TestSupport
import XCTest

/// Listeners and clip receivers are called on the analysis thread, and the compiler checks it: they are
/// `sending`, so in Swift 6 mode a listener with unprotected `var` state that the app keeps using does not
/// compile, while a `Sendable` listener, or one handed over and left alone (the seed's sample), does.
///
/// Each test writes a small consumer of the built `SleepAnalysis` module and compiles it with `swiftc` in
/// Swift 6 mode, through SIL (where region-based isolation is checked), without generating code.
final class ListenerCheckingTests: XCTestCase {
    func test_aListenerWithVarStateKeptByTheApp_isRejectedByTheCompiler() throws {
        // Given an app that reads its listener's and receiver's `var` state after handing them to the analysis
        let source =
            Self.imports + Self.countingListener + """
                final class ClipCounter: AudioClipsReceiver {
                    var clips = 0
                    func onAudioClipProduced(_ clip: AudioClip) { clips += 1 }
                }

                func analyse(_ analyzer: SleepAnalyzer, _ night: any DataSource) async throws -> Int {
                    let listener = CountingListener()
                    try await analyzer.startAnalysis(config: SleepAnalysisConfig(), using: night, eventListeners: [listener])  // SENT-LISTENER
                    return listener.batches
                }

                func record(_ analyzer: SleepAnalyzer) -> Int {
                    let counter = ClipCounter()
                    let producer = analyzer.createAudioClipsProducer(  // SENT-RECEIVER
                        audioClipsConfig: AudioClipsConfig(activeTypes: [:], clipLength: 5), receiver: counter)
                    _ = producer
                    return counter.clips
                }

                """

        // When it is compiled in Swift 6 mode
        let outcome = try Self.compile(source)

        // Then both hand-overs are errors: sending a non-Sendable value that the app goes on using is a data race
        XCTAssertNotEqual(outcome.status, 0, "the racy consumer compiled:\n\(outcome.output)")
        XCTAssertFalse(outcome.output.contains("no such module"), outcome.output)
        let errors = outcome.output.split(separator: "\n").filter {
            $0.contains("consumer.swift:") && $0.contains("error: sending") && $0.contains("risks causing data races")
        }
        for marker in ["SENT-LISTENER", "SENT-RECEIVER"] {
            let line = Self.line(of: marker, in: source)
            XCTAssertTrue(
                errors.contains { $0.contains("consumer.swift:\(line):") },
                "no data-race error at \(marker) (line \(line)):\n\(outcome.output)")
        }
    }

    func test_sendableListeners_andListenersHandedOver_compileCleanly() throws {
        // Given a Sendable listener the app keeps reading, and a `var`-state listener it hands over and leaves
        let source =
            Self.imports + Self.countingListener + """
                import Synchronization

                final class SafeCounter: AudioEventListener, Sendable {
                    private let count = Mutex(0)
                    var batches: Int { count.withLock { $0 } }
                    func onAudioAnalysisBatchCompleted(
                        sessionId: UUID, audioSamples: [Float], audioSampleRate: Int, audioStartTime: Date,
                        audioEndTime: Date, audioProbability: [EventType: Float], eventsStarted: [EventStartedInfo],
                        eventsEnded: [EventEndedInfo], dbSpl: [Float]
                    ) { count.withLock { $0 += 1 } }
                }

                final class SafeClips: AudioClipsReceiver, Sendable {
                    private let clips = Mutex<[AudioClip]>([])
                    var count: Int { clips.withLock { $0.count } }
                    func onAudioClipProduced(_ clip: AudioClip) { clips.withLock { $0.append(clip) } }
                }

                func analyse(_ analyzer: SleepAnalyzer, _ night: any DataSource) async throws -> Int {
                    let counter = SafeCounter()
                    let clips = SafeClips()
                    let producer = analyzer.createAudioClipsProducer(
                        audioClipsConfig: AudioClipsConfig(activeTypes: [:], clipLength: 5), receiver: clips)
                    try await analyzer.startAnalysis(
                        config: SleepAnalysisConfig(), using: night, eventListeners: [counter, producer])
                    return counter.batches + clips.count
                }

                func handOver() async throws {
                    let listener = CountingListener()
                    try await SleepCycleSdk.startAnalysis(config: SleepAnalysisConfig(), eventListeners: [listener])
                }

                """

        // When it is compiled in Swift 6 mode
        let outcome = try Self.compile(source)

        // Then it compiles without a diagnostic
        XCTAssertEqual(outcome.status, 0, outcome.output)
        XCTAssertFalse(outcome.output.contains("warning:"), outcome.output)
    }

    // MARK: - Consumers

    private static let imports = """
        import Foundation
        import SleepAnalysis

        """

    /// A listener class with unprotected `var` state, as the user wrote it.
    private static let countingListener = """
        final class CountingListener: AudioEventListener {
            var batches = 0
            func onAudioAnalysisBatchCompleted(
                sessionId: UUID, audioSamples: [Float], audioSampleRate: Int, audioStartTime: Date, audioEndTime: Date,
                audioProbability: [EventType: Float], eventsStarted: [EventStartedInfo], eventsEnded: [EventEndedInfo],
                dbSpl: [Float]
            ) { batches += 1 }
        }

        """

    /// The 1-based line of the first line of `source` containing `marker`.
    private static func line(of marker: String, in source: String) -> Int {
        let lines = source.components(separatedBy: "\n")
        return (lines.firstIndex { $0.contains(marker) } ?? -1) + 1
    }

    // MARK: - Compiling against the built module

    /// Compiles `source` as `consumer.swift` against the `SleepAnalysis` module this test bundle was built with,
    /// in Swift 6 mode, up to SIL (the diagnostics of region-based isolation), and returns the exit status and
    /// the compiler's output.
    private static func compile(_ source: String) throws -> (status: Int32, output: String) {
        let directory = try TemporaryDirectory(prefix: "listener-checking")
        defer { directory.remove() }
        let file = directory.url.appendingPathComponent("consumer.swift")
        try source.write(to: file, atomically: true, encoding: .utf8)
        let arguments = ["swiftc", "-swift-version", "6", "-emit-sil", "-o", "/dev/null", "-module-name", "Consumer"]
        return try BuiltModules.run(arguments + (try BuiltModules.compilerFlags()) + [file.path])
    }
}
