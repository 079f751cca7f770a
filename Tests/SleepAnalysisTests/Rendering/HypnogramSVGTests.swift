import Foundation
import XCTest

@testable import SleepAnalysis

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// The SVG hypnogram is well-formed XML with time ticks for short and long nights, axis labels and a legend.
final class HypnogramSVGTests: XCTestCase {
    /// What an SVG document holds, as `XMLParser` reads it.
    private final class Elements: NSObject, XMLParserDelegate {
        var classes: [String: Int] = [:]
        var texts: [String] = []
        private var inText = false

        func parser(
            _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
            attributes: [String: String] = [:]
        ) {
            if let kind = attributes["class"] { classes[kind, default: 0] += 1 }
            inText = name == "text"
            if inText { texts.append("") }
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            if inText, !texts.isEmpty { texts[texts.count - 1] += string }
        }

        func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
            inText = false
        }
    }

    private func parse(_ result: AnalysisResult) throws -> Elements {
        let svg = HypnogramSVG.render(result)
        let parser = XMLParser(data: Data(svg.utf8))
        let elements = Elements()
        parser.delegate = elements
        XCTAssertTrue(parser.parse(), "not well-formed: \(parser.parserError.map(String.init(describing:)) ?? "")")
        return elements
    }

    /// A night from 23:00 UTC of `minutes` in light sleep with a deep stretch.
    private func night(minutes: Int) -> AnalysisResult {
        let epochs = minutes * 2
        return ScoringFixtures.result(
            start: ScoringFixtures.time(day: -1, hours: 23),
            runs: [(.awake, epochs / 10), (.light, epochs / 2), (.deep, epochs - epochs / 10 - epochs / 2)])
    }

    func test_a_20_minute_night_gets_5_minute_ticks_a_legend_and_axis_labels() throws {
        let elements = try parse(night(minutes: 20))
        XCTAssertEqual(elements.classes["tick"], 5)
        for label in ["23:00", "23:05", "23:10", "23:15", "23:20"] {
            XCTAssertTrue(elements.texts.contains(label), label)
        }
        XCTAssertEqual(elements.classes["legend"], 1)
        for entry in ["awake", "rem", "light", "deep", "snoring"] {
            XCTAssertGreaterThanOrEqual(elements.texts.filter { $0 == entry }.count, 1, entry)
        }
        XCTAssertEqual(elements.classes["axis-label"], 2)
        XCTAssertTrue(elements.texts.contains { $0.contains("ticks every 5 min") }, "\(elements.texts)")
    }

    func test_an_8_hour_night_gets_hourly_ticks() throws {
        let elements = try parse(night(minutes: 480))
        XCTAssertEqual(elements.classes["tick"], 9)
        XCTAssertTrue(elements.texts.contains("03:00"))
        XCTAssertTrue(elements.texts.contains { $0.contains("ticks every 60 min") })
    }

    func test_the_step_grows_with_the_night_and_ticks_fall_on_its_multiples() {
        XCTAssertEqual(HypnogramTimeAxis.stepInMinutes(for: 20 * 60), 5)
        XCTAssertEqual(HypnogramTimeAxis.stepInMinutes(for: 90 * 60), 10)
        XCTAssertEqual(HypnogramTimeAxis.stepInMinutes(for: 150 * 60), 15)
        XCTAssertEqual(HypnogramTimeAxis.stepInMinutes(for: 4 * 3600), 30)
        XCTAssertEqual(HypnogramTimeAxis.stepInMinutes(for: 8 * 3600), 60)
        let start = ScoringFixtures.time(day: -1, hours: 23 + 7.0 / 60)  // 23:07
        let ticks = HypnogramTimeAxis.ticks(
            from: start, to: start.addingTimeInterval(20 * 60), in: ScoringFixtures.utc)
        XCTAssertEqual(ticks.first?.timeIntervalSince(start), 3 * 60)  // 23:10
        XCTAssertEqual(ticks.count, 4)  // 23:10, 23:15, 23:20, 23:25
    }
}
