import Foundation
import XCTest

/// A real full disk: a small tmpfs mounted for the test, on which `fill()` takes every free byte (writes then
/// fail with ENOSPC, as on a full disk) and `free()` gives them back. Needs root and `mount`; otherwise the test
/// is skipped. Unmounted when the test ends.
struct FullFilesystem {
    /// The mount point.
    let url: URL
    /// The file `fill()` writes.
    private var filler: URL { url.appendingPathComponent("filler") }

    /// Mounts a tmpfs of `kilobytes` at a new directory under `parent`.
    ///
    /// - Parameters:
    ///   - parent: Where to create the mount point.
    ///   - kilobytes: The file system's size.
    ///   - testCase: The test, for the teardown that unmounts it.
    /// - Throws: `XCTSkip` when a tmpfs cannot be mounted here.
    init(under parent: URL, kilobytes: Int, _ testCase: XCTestCase) throws {
        url = parent.appendingPathComponent("tiny-disk", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        guard geteuid() == 0,
            try runTool("/usr/bin/mount", ["-t", "tmpfs", "-o", "size=\(kilobytes)k", "tmpfs", url.path]) == 0
        else {
            throw XCTSkip("a full disk is simulated with a small tmpfs, which needs root and mount")
        }
        let mounted = url
        testCase.addTeardownBlock { _ = try? runTool("/usr/bin/umount", [mounted.path]) }
    }

    /// Writes a file until the file system is full.
    func fill() throws {
        _ = FileManager.default.createFile(atPath: filler.path, contents: nil)
        let handle = try FileHandle(forWritingTo: filler)
        defer { try? handle.close() }
        let block = Data(repeating: 0x5A, count: 4_096)
        while (try? handle.write(contentsOf: block)) != nil {}
    }

    /// Deletes what `fill()` wrote.
    func free() throws {
        try FileManager.default.removeItem(at: filler)
    }
}
