import Foundation
import XCTest

/// Debian's Chromium, headless, with networking off (every host unresolvable, every connection sent to a closed
/// port) and a profile of its own: the browser the HTML pages' tests render them in.
struct HeadlessChromium {
    /// The executable.
    let executable: URL
    /// Where its profile and outputs go.
    let directory: URL

    /// Debian's `chromium` on the PATH, or a skip saying how to get it.
    init(directory: URL) throws {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin"
        guard
            let found = path.split(separator: ":").map({
                URL(fileURLWithPath: String($0)).appendingPathComponent("chromium")
            }).first(where: { FileManager.default.isExecutableFile(atPath: $0.path) })
        else {
            throw XCTSkip("needs Debian's chromium to render HTML pages (Tools/install-dependencies.sh installs it)")
        }
        executable = found
        self.directory = directory
    }

    /// The page's DOM after it loaded in a window `width` pixels wide (and after `virtualTime` milliseconds of its
    /// timers, for a page that runs scripts).
    func dom(_ page: URL, width: Int = 1280, virtualTime: Int? = nil) throws -> String {
        try run(
            ["--dump-dom", "--window-size=\(width),900"] + (virtualTime.map { ["--virtual-time-budget=\($0)"] } ?? [])
                + [page.absoluteString])
    }

    /// A screenshot of `page` in a window `width` × `height` pixels, decoded.
    func screenshot(_ page: URL, width: Int, height: Int) throws -> PNGImage {
        let file = directory.appendingPathComponent("screenshot-\(width)x\(height)-\(UUID().uuidString).png")
        _ = try run([
            "--hide-scrollbars", "--window-size=\(width),\(height)", "--screenshot=\(file.path)", page.absoluteString,
        ])
        return try PNGImage(Data(contentsOf: file))
    }

    /// Runs Chromium with `arguments` and returns its standard output; fails the test when it does not finish in
    /// 90 s or exits with an error.
    func run(_ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = executable
        process.arguments =
            [
                "--headless", "--disable-gpu", "--no-sandbox", "--no-first-run", "--proxy-server=127.0.0.1:9",
                "--host-resolver-rules=MAP * ~NOTFOUND", "--force-device-scale-factor=1",
                "--user-data-dir=\(directory.appendingPathComponent("chromium-profile").path)",
            ] + arguments
        let output = directory.appendingPathComponent("chromium-\(UUID().uuidString).out")
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        let handle = try FileHandle(forWritingTo: output)
        process.standardOutput = handle
        process.standardError = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(90)
        while process.isRunning && Date() < deadline { usleep(20_000) }
        if process.isRunning {
            process.terminate()
            XCTFail("chromium \(arguments.joined(separator: " ")) did not finish in 90 s")
        }
        process.waitUntilExit()
        try handle.close()
        XCTAssertEqual(process.terminationStatus, 0, "chromium \(arguments.joined(separator: " "))")
        return try String(contentsOf: output, encoding: .utf8)
    }
}
