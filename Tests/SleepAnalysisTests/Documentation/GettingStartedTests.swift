import Foundation
import SleepAnalysis
import TestSupport
import XCTest

// The program of `Sources/SleepAnalysis/Docs.docc/GettingStarted.md`, verbatim (the test below checks that the
// article still shows exactly this code).

/// Analyses the recording at `recording` with the licence `apiKey` and prints what it finds.
func analyzeNight(apiKey: String, recording: URL) async throws -> AnalysisResult {
    let features = try await SleepCycleSdk.initialize(logLevel: .warning, apiKey: apiKey)
    print("Licensed features: \(features)")

    // Subscribe before starting: a stream delivers only what is published after it was created.
    let eventStream = await SleepCycleSdk.eventStream
    let stageStream = await SleepCycleSdk.sleepStageStream
    let eventPrinter = Task {
        for await events in eventStream {
            for event in events {
                print("\(event.type) at \(event.interval.start), p=\(event.probability)")
            }
        }
    }
    let stagePrinter = Task {
        for await prediction in stageStream {
            print("Epoch at \(prediction.interval.start): \(prediction.stage)")
        }
    }

    let night = SleepCycleSdk.createFileDataSource(audio: recording, accelerometer: nil)
    let sessionId = try await SleepCycleSdk.startAnalysis(
        config: SleepAnalysisConfig(useAudio: true), using: night)
    print("Analysing session \(sessionId)")

    await night.waitUntilFinished()
    let result = try await SleepCycleSdk.stopAnalysis()
    eventPrinter.cancel()
    stagePrinter.cancel()

    if let statistics = result.statistics {
        print("Total sleep: \(statistics.totalSleepDuration ?? 0) s")
        print("Sleep efficiency: \(statistics.sleepEfficiency ?? 0)")
    }
    print("Events: \(result.events.count), breathing rates: \(result.breathingRates.count)")
    for stageInterval in result.sleepStageIntervals {
        print("\(stageInterval.stage): \(stageInterval.interval)")
    }
    if let error = await SleepCycleSdk.dataSourceError {
        print("The recording ended early: \(error)")
    }
    await SleepCycleSdk.deinitialize()
    return result
}

/// Runs the program on its command line, `NightReport RECORDING [LICENCE-FILE]`; returns its exit status.
func runNightReport(_ arguments: [String]) async -> Int32 {
    guard arguments.count == 2 || arguments.count == 3 else {
        print("usage: NightReport RECORDING [LICENCE-FILE]")
        return 64
    }
    do {
        // A production key from the licence file, or else a development licence to try the library out.
        let apiKey =
            arguments.count == 3
            ? try String(contentsOfFile: arguments[2], encoding: .utf8)
                .trimmingCharacters(in: .whitespacesAndNewlines)
            : try License.developmentKey(subject: "NightReport")
        _ = try await analyzeNight(apiKey: apiKey, recording: URL(fileURLWithPath: arguments[1]))
        return 0
    } catch {
        FileHandle.standardError.write(Data("NightReport: \(error)\n".utf8))
        return 1
    }
}

/// The Getting Started article's program runs, and the article shows the code that runs.
final class GettingStartedTests: SDKTestCase {
    private let environment = ScopedEnvironment()

    override func tearDown() async throws {
        await SleepCycleSdk.deinitialize()
        environment.restore()
        try await super.tearDown()
    }

    func test_gettingStarted_program_analyses_a_recorded_night_and_deinitializes() async throws {
        let issuer = try LicenseIssuer.generateKeyPair()
        let apiKey = try LicenseIssuer.issue(
            features: .none, expires: Date().addingTimeInterval(3600), subject: "getting started",
            privateKey: issuer.privateKey)
        environment.isolateSDK(in: storage.url, trusting: issuer.publicKeyBase64)
        let recording = try writeNoiseFile(seconds: 12, sampleRate: 44_100)

        let before = Date()
        let result = try await analyzeNight(apiKey: apiKey, recording: recording)

        XCTAssertGreaterThanOrEqual(result.startTime, before.addingTimeInterval(-1))
        XCTAssertEqual(result.endTime.timeIntervalSince(result.startTime), 12, accuracy: 0.05)
        let state = await SleepCycleSdk.currentState
        XCTAssertEqual(state, .uninitialized)
    }

    func test_gettingStarted_entry_point_analyses_under_a_development_licence_without_a_licence_file() async {
        environment.isolateSDK(in: storage.url, trusting: "")
        let recording: URL
        do {
            recording = try writeNoiseFile(seconds: 12, sampleRate: 44_100)
        } catch {
            return XCTFail("\(error)")
        }
        let status = await runNightReport(["NightReport", recording.path])
        XCTAssertEqual(status, 0)
        let state = await SleepCycleSdk.currentState
        XCTAssertEqual(state, .uninitialized)
    }

    func test_gettingStarted_entry_point_reports_an_untrusted_key_as_an_exit_status_not_a_crash() async throws {
        environment.isolateSDK(in: storage.url, trusting: "")
        let stranger = try LicenseIssuer.generateKeyPair()
        let licence = storage.url.appendingPathComponent("licence.key")
        try Data(
            try LicenseIssuer.issue(
                features: .all, expires: Date().addingTimeInterval(3600), subject: "not trusted here",
                privateKey: stranger.privateKey
            ).utf8
        ).write(to: licence)
        let recording = try writeNoiseFile(seconds: 2, sampleRate: 16_000)
        let status = await runNightReport(["NightReport", recording.path, licence.path])
        XCTAssertEqual(status, 1)
        let state = await SleepCycleSdk.currentState
        XCTAssertEqual(state, .uninitialized)
    }

    func test_gettingStarted_article_shows_the_tested_program() throws {
        let article = FixturePaths.repositoryRoot
            .appendingPathComponent("Sources/SleepAnalysis/Docs.docc/GettingStarted.md")
        let text = try String(contentsOf: article, encoding: .utf8)
        let blocks = text.components(separatedBy: "```swift\n").dropFirst().map {
            $0.components(separatedBy: "```").first ?? ""
        }
        let block = try XCTUnwrap(blocks.first { $0.contains("func analyzeNight(") }, "no analyzeNight block")
        let start = try XCTUnwrap(block.range(of: "/// Analyses the recording"), "analyzeNight lost its doc comment")
        let program = block[start.lowerBound...]
        let source = try String(contentsOf: URL(fileURLWithPath: #filePath), encoding: .utf8)
        XCTAssertTrue(source.contains(program), "GettingStarted.md's analyzeNight differs from the tested copy")
        let entry = try XCTUnwrap(blocks.first { $0.contains("func runNightReport(") }, "no runNightReport block")
        XCTAssertTrue(source.contains(entry), "GettingStarted.md's runNightReport differs from the tested copy")
        let main = try XCTUnwrap(blocks.first { $0.contains("@main") }, "no entry point")
        XCTAssertTrue(main.contains("exit(await runNightReport(CommandLine.arguments))"), main)
        XCTAssertFalse(text.contains("try!") || text.contains("main() async throws"), "a crash instead of a message")
    }
}
