import Foundation
import XCTest

@testable import SleepAnalysis

/// A fresh temporary directory, removed when the test ends.
func makeTemporaryDirectory(_ testCase: XCTestCase) throws -> URL {
    let url = FileManager.default.temporaryDirectory
        .appendingPathComponent("sleepanalysis-persistence-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    testCase.addTeardownBlock { try? FileManager.default.removeItem(at: url) }
    return url
}

/// Asserts that `body` throws `SleepCycleSdkError.storageFailure`, and returns its message.
@discardableResult
func assertStorageFailure<T>(
    _ body: @autoclosure () throws -> T, file: StaticString = #filePath, line: UInt = #line
) -> String? {
    do {
        _ = try body()
        XCTFail("expected a storage failure", file: file, line: line)
    } catch SleepCycleSdkError.storageFailure(let message) {
        return message.message
    } catch {
        XCTFail("expected a storage failure, got \(error)", file: file, line: line)
    }
    return nil
}
