import Foundation
import TestSupport
import XCTest

@testable import SleepAnalysis

/// The pages for people pass axe-core (the accessibility engine, `Tools/a11y/fetch-axe.sh`) in headless Chromium
/// with no serious or critical violation, at a phone's width (390 px) and a desktop's (1280 px): the demo night's
/// report from `analyze --report`, and the trends page of `report` over 14 stored nights. The page under test is the tool's file with only its Content-Security-Policy
/// (which forbids every script) taken out and axe added; a page with known faults shows the check finds them.
final class ReportAccessibilityTests: XCTestCase {
    /// A violation as axe reports it.
    struct Violation: Decodable, CustomStringConvertible {
        var id: String
        var impact: String?
        var help: String
        var nodes: Int

        var description: String { "\(id) (\(impact ?? "?")): \(help), \(nodes) element(s)" }
    }

    /// What the harness page writes into itself.
    struct Outcome: Decodable {
        var version: String
        var violations: [Violation]
    }

    func test_the_night_report_and_the_trends_page_have_no_serious_or_critical_violation() throws {
        let directory = try makeTemporaryDirectory(self)
        let chromium = try HeadlessChromium(directory: directory)
        let axe = try Self.axeScript()
        let night = try NightReportBrowserTests.demoReport(in: directory)
        let trends = try Self.trendsPage(in: directory)
        for page in [night, trends] {
            for width in [390, 1280] {
                let outcome = try Self.check(page, axe: axe, chromium: chromium, directory: directory, width: width)
                XCTAssertTrue(outcome.version.hasPrefix("4."), outcome.version)
                let serious = outcome.violations.filter { ["serious", "critical"].contains($0.impact ?? "") }
                XCTAssertEqual(
                    serious.map(\.description), [], "\(page.lastPathComponent) at \(width) px: \(outcome.violations)")
            }
        }
    }

    func test_the_check_finds_the_violations_of_a_page_that_has_them() throws {
        let directory = try makeTemporaryDirectory(self)
        let chromium = try HeadlessChromium(directory: directory)
        let faulty = directory.appendingPathComponent("faulty.html")
        try Data(
            """
            <!DOCTYPE html><html><head><title>faults</title></head><body><main>
            <svg role="img" width="10" height="10"><rect width="10" height="10"/></svg>
            <p style="color:#eeeeee;background:#ffffff">pale text</p>
            <table><tr><td></td></tr></table><a href="#"></a>
            </main></body></html>
            """.utf8
        ).write(to: faulty)
        let outcome = try Self.check(faulty, axe: try Self.axeScript(), chromium: chromium, directory: directory)
        let found = Set(outcome.violations.map(\.id))
        for expected in ["html-has-lang", "svg-img-alt", "color-contrast", "link-name"] {
            XCTAssertTrue(found.contains(expected), "\(expected) in \(outcome.violations)")
        }
    }

    /// Runs axe on a copy of `page` and returns what it found.
    static func check(
        _ page: URL, axe: URL, chromium: HeadlessChromium, directory: URL, width: Int = 1280
    ) throws -> Outcome {
        var html = try String(contentsOf: page, encoding: .utf8)
        if let policy = html.range(
            of: #"<meta http-equiv="Content-Security-Policy"[^>]*>"#, options: .regularExpression)
        {
            html.removeSubrange(policy)
        }
        let runner = """
            <script src="axe.min.js"></script>
            <script>
            axe.run(document, { resultTypes: ["violations"] }).then(function (results) {
              var out = document.createElement("pre");
              out.id = "axe-outcome";
              out.textContent = JSON.stringify({ version: axe.version, violations: results.violations.map(function (v) {
                return { id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.length };
              }) });
              document.body.appendChild(out);
            });
            </script>

            """
        guard let end = html.range(of: "</body>", options: .backwards) else {
            throw XCTSkip("\(page.lastPathComponent) has no </body>")
        }
        html.replaceSubrange(end, with: runner + "</body>")
        let harness = directory.appendingPathComponent("axe-\(page.deletingPathExtension().lastPathComponent).html")
        try Data(html.utf8).write(to: harness)
        let copy = directory.appendingPathComponent("axe.min.js")
        if !FileManager.default.fileExists(atPath: copy.path) { try FileManager.default.copyItem(at: axe, to: copy) }
        let dom = try chromium.dom(harness, width: width, virtualTime: 60_000)
        guard let start = dom.range(of: "<pre id=\"axe-outcome\">"),
            let stop = dom.range(of: "</pre>", range: start.upperBound..<dom.endIndex)
        else {
            XCTFail("axe did not report on \(page.lastPathComponent)")
            return Outcome(version: "", violations: [])
        }
        let json = dom[start.upperBound..<stop.lowerBound].replacingOccurrences(of: "&lt;", with: "<")
            .replacingOccurrences(of: "&gt;", with: ">").replacingOccurrences(of: "&amp;", with: "&")
        return try JSONDecoder().decode(Outcome.self, from: Data(json.utf8))
    }

    /// `Tools/a11y/vendor/axe.min.js`, or a skip saying how to get it.
    static func axeScript() throws -> URL {
        let script = FixturePaths.repositoryRoot.appendingPathComponent("Tools/a11y/vendor/axe.min.js")
        guard FileManager.default.fileExists(atPath: script.path) else {
            throw XCTSkip("needs axe-core: Tools/a11y/fetch-axe.sh (run by Tools/install-dependencies.sh) fetches it")
        }
        return script
    }

    /// `report --out` over 14 nights saved in a real SQLite store.
    static func trendsPage(in directory: URL) throws -> URL {
        let storeDirectory = directory.appendingPathComponent("store")
        let store = try SessionStore(directory: storeDirectory)
        for index in 0..<14 { _ = try store.save(TrendFixtures.night(index)) }
        let out = directory.appendingPathComponent("trends.html")
        let run = try runCommandLineTool(["report", "--store", storeDirectory.path, "--out", out.path])
        XCTAssertEqual(run.status, 0, run.standardError)
        return out
    }
}
