import Foundation
import TestSupport
import XCTest

/// `analyze --report night.html` on the bundled demo night, loaded in a real headless browser (Debian's Chromium)
/// with networking off: the page needs nothing from the network, every section is in the rendered document, and
/// the screenshot shows the charts painted, in order, inside the page's column.
final class NightReportBrowserTests: XCTestCase {
    /// The screenshot's size: the report's column (1000 px) fits across, and the whole page fits down.
    static let window = (width: 1024, height: 2600)

    func test_the_demo_night_report_renders_offline_with_every_section_and_chart_in_place() throws {
        let chromium = try Self.chromium()
        let directory = try makeTemporaryDirectory(self)
        let report = directory.appendingPathComponent("night.html")
        let analysed = try runCommandLineTool(
            [
                "analyze", FixturePaths.fixtures.appendingPathComponent("night_short.ogg").path,
                "--accelerometer", FixturePaths.fixtures.appendingPathComponent("night_short_accelerometer.csv").path,
                "--start", "2026-12-01T23:00:00Z", "--no-store", "--quiet", "--storage",
                directory.appendingPathComponent("state").path, "--report", report.path,
            ], timeout: 120)
        XCTAssertEqual(analysed.status, 0, analysed.standardError)

        let html = try String(contentsOf: report, encoding: .utf8)
        // Self-contained: the only URL is the SVG namespace; nothing to load, nothing to run.
        XCTAssertEqual(
            html.components(separatedBy: "://").count - 1,
            html.components(separatedBy: "\"http://www.w3.org/2000/svg\"").count - 1, "only the SVG namespace")
        for forbidden in ["<script", "<link", "<img", "<iframe", "src=", "url(", "@import", "@font-face"] {
            XCTAssertFalse(html.localizedCaseInsensitiveContains(forbidden), forbidden)
        }

        let dom = try Self.run(chromium, directory: directory, ["--dump-dom", report.absoluteString])
        for section in [
            "summary", "staging-basis", "hypnogram", "events", "snoring", "breathing", "sound-level", "statistics",
            "score", "audio-health",
        ] {
            XCTAssertTrue(dom.contains("id=\"\(section)\""), "the rendered page has the \(section) section")
        }
        XCTAssertTrue(dom.contains("movement (validated on wrist actigraphy against polysomnography)"), dom)
        XCTAssertTrue(
            dom.contains("No score: the recording is short (a score needs 3 hours in bed)."),
            "a 30-minute recording is not scored, and the page says why")
        XCTAssertEqual(dom.components(separatedBy: "<svg").count - 1, 5, "hypnogram, probabilities, events, two lines")

        let screenshot = directory.appendingPathComponent("night.png")
        _ = try Self.run(
            chromium, directory: directory,
            [
                "--hide-scrollbars", "--window-size=\(Self.window.width),\(Self.window.height)",
                "--screenshot=\(screenshot.path)", report.absoluteString,
            ])
        let image = try PNGImage(Data(contentsOf: screenshot))
        XCTAssertEqual(image.width, Self.window.width)
        XCTAssertEqual(image.height, Self.window.height)
        try checkLayout(image)
    }

    /// Each chart paints its own colour: the hypnogram's pale stage bands, the probability columns, the events'
    /// movement marks, the breathing line, the sound-level line. They appear top to bottom in that order, each
    /// inside the page's centred 1000-pixel column.
    private func checkLayout(_ image: PNGImage) throws {
        let colours: [(name: String, colour: PNGImage.Colour)] = [
            ("hypnogram: awake band", PNGImage.Colour(hex: "#e4572e").over(white: 0.35)),
            ("probabilities: light column", PNGImage.Colour(hex: "#4ea5d9")),
            ("events: movement mark", PNGImage.Colour(hex: "#5b8c5a")),
            ("breathing line", PNGImage.Colour(hex: "#2a7ab0")),
            ("sound level line", PNGImage.Colour(hex: "#6e5494")),
        ]
        let boxes = image.boundingBoxes(of: Dictionary(uniqueKeysWithValues: colours.map { ($0.name, $0.colour) }))
        let column = (Self.window.width - 1000) / 2...(Self.window.width + 1000) / 2
        var previousBottom = 0
        for (name, _) in colours {
            let box = try XCTUnwrap(boxes[name], "\(name) is painted")
            XCTAssertGreaterThan(box.top, previousBottom, "\(name) is below the chart before it: \(boxes)")
            XCTAssertTrue(column.contains(box.left) && column.contains(box.right), "\(name) is in the column: \(box)")
            XCTAssertGreaterThan(box.right - box.left, 200, "\(name) spans the night: \(box)")
            previousBottom = box.bottom
        }
    }

    /// Debian's `chromium`, or a skip saying how to get it.
    private static func chromium() throws -> URL {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin"
        for folder in path.split(separator: ":") {
            let candidate = URL(fileURLWithPath: String(folder)).appendingPathComponent("chromium")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        throw XCTSkip("needs Debian's chromium to render the HTML report (Tools/install-dependencies.sh installs it)")
    }

    /// Runs headless Chromium with networking off (every host unresolvable, every connection sent to a closed
    /// port) and its own profile, and returns its standard output.
    private static func run(_ chromium: URL, directory: URL, _ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = chromium
        process.arguments =
            [
                "--headless", "--disable-gpu", "--no-sandbox", "--no-first-run", "--proxy-server=127.0.0.1:9",
                "--host-resolver-rules=MAP * ~NOTFOUND",
                "--user-data-dir=\(directory.appendingPathComponent("chromium-profile").path)",
            ] + arguments
        let output = directory.appendingPathComponent("chromium-\(UUID().uuidString).out")
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        let handle = try FileHandle(forWritingTo: output)
        process.standardOutput = handle
        process.standardError = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(60)
        while process.isRunning && Date() < deadline { usleep(20_000) }
        if process.isRunning {
            process.terminate()
            XCTFail("chromium \(arguments.joined(separator: " ")) did not finish in 60 s")
        }
        process.waitUntilExit()
        try handle.close()
        XCTAssertEqual(process.terminationStatus, 0, "chromium \(arguments.joined(separator: " "))")
        return try String(contentsOf: output, encoding: .utf8)
    }
}
