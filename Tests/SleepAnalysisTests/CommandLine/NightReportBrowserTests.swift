import Foundation
import TestSupport
import XCTest

@testable import SleepAnalysis

/// `analyze --report night.html` on the bundled demo night, loaded in a real headless browser (Debian's Chromium)
/// with networking off, at a phone's width (390 px) and a desktop's (1280 px): the page needs nothing from the
/// network, its blocks come in reading order (the night at a glance, then the hypnogram with its events, then the
/// stage probabilities, breathing and sound level), and the three stage pictures (the share bar, the hypnogram and
/// the probabilities) paint the very same stage colours.
final class NightReportBrowserTests: XCTestCase {
    func test_the_demo_night_report_renders_offline_with_its_blocks_in_order_at_phone_and_desktop_width() throws {
        let directory = try makeTemporaryDirectory(self)
        let chromium = try HeadlessChromium(directory: directory)
        let report = try Self.demoReport(in: directory)

        let html = try String(contentsOf: report, encoding: .utf8)
        // Self-contained: the only URL is the SVG namespace; nothing to load, nothing to run.
        XCTAssertEqual(
            html.components(separatedBy: "://").count - 1,
            html.components(separatedBy: "\"http://www.w3.org/2000/svg\"").count - 1, "only the SVG namespace")
        for forbidden in ["<script", "<link", "<img", "<iframe", "src=", "url(", "@import", "@font-face"] {
            XCTAssertFalse(html.localizedCaseInsensitiveContains(forbidden), forbidden)
        }
        XCTAssertTrue(html.contains("@media print"), "a print style sheet")

        let dom = try chromium.dom(report)
        let order = ["headline", "hypnogram", "stage-probabilities", "snoring", "breathing", "sound-level", "about"]
        let positions = try order.map { try XCTUnwrap(dom.range(of: "id=\"\($0)\"")?.lowerBound, $0) }
        XCTAssertEqual(positions, positions.sorted(), "the rendered page's blocks in order: \(order)")
        XCTAssertTrue(dom.contains("Staged from movement (validated on wrist actigraphy against polysomnography)"))
        XCTAssertTrue(
            dom.contains("No score: the recording is short (a score needs 3 hours in bed)."),
            "a 30-minute recording is not scored, and the page says why")

        for width in [390, 1280] {
            let image = try chromium.screenshot(report, width: width, height: 2600)
            XCTAssertEqual(image.width, width)
            try checkLayout(image, width: width)
        }
    }

    /// Reads the screenshot from the top: the first band of stage colours is the share bar (short, across the
    /// column), the second the hypnogram, the third the probability columns; each of the three is painted in the
    /// palette's exact colours (no second, paler palette), the hypnogram's stages all reappear in the
    /// probabilities, and the breathing and sound-level lines come below them in that order.
    private func checkLayout(_ image: PNGImage, width: Int) throws {
        let stageColours = Dictionary(
            uniqueKeysWithValues: SleepStage.allCases.map { ($0, PNGImage.Colour(hex: StageColours.colour($0))) })
        // A row belongs to a stage picture when it has a run of 20 pixels in one stage colour (legend swatches,
        // 12 pixels, do not count).
        var rows: [(y: Int, stages: Set<SleepStage>)] = []
        for y in 0..<image.height {
            let stages = Set(stageColours.filter { image.longestRun(in: y, of: $0.value) >= 20 }.keys)
            if !stages.isEmpty { rows.append((y, stages)) }
        }
        var bands: [(top: Int, bottom: Int, stages: Set<SleepStage>)] = []
        for row in rows {
            if let last = bands.last, row.y - last.bottom <= 60 {
                bands[bands.count - 1] = (last.top, row.y, last.stages.union(row.stages))
            } else {
                bands.append((row.y, row.y, row.stages))
            }
        }
        XCTAssertEqual(bands.count, 3, "share bar, hypnogram, probabilities at \(width) px: \(bands)")
        guard bands.count == 3 else { return }
        let (bar, hypnogram, probabilities) = (bands[0], bands[1], bands[2])
        XCTAssertLessThanOrEqual(bar.bottom - bar.top, 30, "the share bar is one thin bar: \(bar)")
        XCTAssertLessThan(bar.top, 500, "the night at a glance is at the top at \(width) px: \(bar)")
        XCTAssertGreaterThan(hypnogram.bottom - hypnogram.top, 40, "\(hypnogram)")
        XCTAssertGreaterThan(probabilities.bottom - probabilities.top, 40, "\(probabilities)")
        XCTAssertEqual(bar.stages, [.awake, .light], "the demo night is awake and light: \(bar)")
        XCTAssertEqual(hypnogram.stages, bar.stages, "the hypnogram paints the bar's colours")
        XCTAssertTrue(hypnogram.stages.isSubset(of: probabilities.stages), "the probabilities paint the same colours")
        let barSpan = image.horizontalSpan(in: bar.top + 10, of: stageColours[.awake]!, stageColours[.light]!)
        XCTAssertGreaterThan(barSpan, min(width, 1000) * 3 / 4, "the bar spans the column at \(width) px")
        for band in [hypnogram, probabilities] {
            let share = image.paletteShare(top: band.top, bottom: band.bottom, palette: Array(stageColours.values))
            XCTAssertGreaterThan(share, 0.8, "the coloured pixels of \(band) are the palette's, at \(width) px")
        }

        let lines = image.boundingBoxes(of: [
            "breathing": PNGImage.Colour(hex: StageColours.breathing),
            "sound level": PNGImage.Colour(hex: StageColours.soundLevel),
        ])
        let breathing = try XCTUnwrap(lines["breathing"], "the breathing line is painted at \(width) px")
        let sound = try XCTUnwrap(lines["sound level"], "the sound-level line is painted at \(width) px")
        XCTAssertGreaterThan(breathing.top, probabilities.bottom, "breathing below the stages at \(width) px")
        XCTAssertGreaterThan(sound.top, breathing.bottom, "sound level below breathing at \(width) px")
    }

    /// `analyze --report` of the demo night into `directory`.
    static func demoReport(in directory: URL, extra: [String] = []) throws -> URL {
        let report = directory.appendingPathComponent("night-\(UUID().uuidString).html")
        let analysed = try runCommandLineTool(
            [
                "analyze", FixturePaths.fixtures.appendingPathComponent("night_short.ogg").path,
                "--accelerometer", FixturePaths.fixtures.appendingPathComponent("night_short_accelerometer.csv").path,
                "--start", "2026-12-01T23:00:00Z", "--no-store", "--quiet", "--storage",
                directory.appendingPathComponent("state").path, "--report", report.path,
            ] + extra, timeout: 120)
        XCTAssertEqual(analysed.status, 0, analysed.standardError)
        return report
    }
}

extension PNGImage {
    /// The longest run of pixels within `tolerance` of `colour` in row `y`.
    func longestRun(in y: Int, of colour: Colour, tolerance: Int = 2) -> Int {
        var longest = 0
        var run = 0
        for x in 0..<width {
            run = self[x, y].distance(to: colour) <= tolerance ? run + 1 : 0
            longest = max(longest, run)
        }
        return longest
    }

    /// From the first to the last pixel of row `y` in any of `colours`.
    func horizontalSpan(in y: Int, of colours: Colour...) -> Int {
        let xs = (0..<width).filter { x in colours.contains { self[x, y].distance(to: $0) <= 2 } }
        guard let first = xs.first, let last = xs.last else { return 0 }
        return last - first + 1
    }

    /// Of the chromatic pixels (channels more than 40 apart) in rows `top...bottom`, the share within 2 of a
    /// colour of `palette`; edges blended with their neighbours make the rest.
    func paletteShare(top: Int, bottom: Int, palette: [Colour]) -> Double {
        var chromatic = 0
        var inPalette = 0
        for y in top...bottom {
            for x in 0..<width {
                let pixel = self[x, y]
                guard max(pixel.red, pixel.green, pixel.blue) - min(pixel.red, pixel.green, pixel.blue) > 40 else {
                    continue
                }
                chromatic += 1
                if palette.contains(where: { pixel.distance(to: $0) <= 2 }) { inPalette += 1 }
            }
        }
        return chromatic == 0 ? 0 : Double(inPalette) / Double(chromatic)
    }
}
