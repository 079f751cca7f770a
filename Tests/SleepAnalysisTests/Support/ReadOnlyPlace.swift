import Foundation
import XCTest

/// Makes a file or directory unwritable for the rest of the test, for real: `chmod` for an ordinary user, and for
/// root (whom permissions do not stop) the immutable attribute (`chattr +i`), which stops root too. Undone when
/// the test ends.
///
/// - Parameters:
///   - url: The file or directory.
///   - testCase: The test, for the teardown that makes it writable again.
/// - Throws: `XCTSkip` when the place cannot be made read-only here (root on a file system without `chattr`).
func makeReadOnly(_ url: URL, _ testCase: XCTestCase) throws {
    var isDirectory: ObjCBool = false
    _ = FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory)
    if geteuid() != 0 {
        let mode: Int16 = isDirectory.boolValue ? 0o555 : 0o444
        try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: url.path)
        testCase.addTeardownBlock {
            try? FileManager.default.setAttributes(
                [.posixPermissions: isDirectory.boolValue ? 0o755 : 0o644], ofItemAtPath: url.path)
        }
        return
    }
    guard try runTool("/usr/bin/chattr", ["+i", url.path]) == 0 else {
        throw XCTSkip("root cannot make \(url.path) read-only here (chattr +i failed)")
    }
    testCase.addTeardownBlock { _ = try? runTool("/usr/bin/chattr", ["-i", url.path]) }
}

/// Runs a system tool quietly and returns its exit status.
///
/// - Parameters:
///   - path: The executable.
///   - arguments: Its arguments.
/// - Returns: The exit status (127 when it does not exist).
@discardableResult
func runTool(_ path: String, _ arguments: [String]) throws -> Int32 {
    guard FileManager.default.isExecutableFile(atPath: path) else { return 127 }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: path)
    process.arguments = arguments
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    process.waitUntilExit()
    return process.terminationStatus
}
