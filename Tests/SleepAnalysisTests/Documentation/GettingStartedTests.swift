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
    }
}
