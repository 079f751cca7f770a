import Foundation
import XCTest

@testable import SleepAnalysis
@testable import SleepAnalysisFleet

/// A worker decides from the error's typed cause whether a night is at fault: memory is retried, bad input fails.
final class NightFailureClassificationTests: XCTestCase {
    func test_aDSPOutOfMemory_isRetried_notAFailedNight() {
        let memory = DSPError(.outOfMemory, "front end set-up").sdkError
        guard case .transient = NightFailureClassification.classify(memory) else {
            return XCTFail("\(NightFailureClassification.classify(memory))")
        }
        let backend = DSPError(.backend, "FFT plan").sdkError
        guard case .input = NightFailureClassification.classify(backend) else {
            return XCTFail("\(NightFailureClassification.classify(backend))")
        }
    }

    func test_inputAndEmptyRanges_failTheNight_aBusyStoreIsRetried_aLicenceStopsTheWorker() {
        let cases: [(SleepCycleSdkError, String)] = [
            (.invalidInput("night.flac: truncated"), "input"),
            (.emptyTimeRange("the recording ended before the session"), "input"),
            (.storageFailure(.init("journal busy", cause: .sqlite(resultCode: 5))), "transient"),
            (.storageFailure(.init("journal corrupt", cause: .sqlite(resultCode: 11))), "transient"),
            (.invalidApiKey("expired"), "worker"),
        ]
        for (error, expected) in cases {
            let kind =
                switch NightFailureClassification.classify(error) {
                case .input: "input"
                case .transient: "transient"
                case .worker: "worker"
                }
            XCTAssertEqual(kind, expected, "\(error)")
        }
    }

    func test_remoteInputErrors_areLocalized() {
        let error: any Error = RemoteInputError.refused(status: 404, url: "https://example.org/n.flac")
        XCTAssertEqual(error.localizedDescription, "\(error)")
        XCTAssertNotEqual(error.localizedDescription, "The operation could not be completed.")
    }
}
