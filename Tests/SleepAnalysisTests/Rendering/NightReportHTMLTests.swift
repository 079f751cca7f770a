import Foundation
import XCTest

@testable import SleepAnalysis

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// The HTML night report escapes what it quotes, says why a score or the sound level is missing, flags staging
/// that is not validated, keeps two nights' section ids apart, and its charts are well-formed SVG.
final class NightReportHTMLTests: XCTestCase {
    private let start = Date(timeIntervalSince1970: 1_796_166_000)  // 2026-12-01T23:00:00Z

    private func night(staged: Bool, basis: StagingBasis.Mode?, warning: String? = nil) -> AnalysisResult {
        let end = start.addingTimeInterval(3600)
        let id = UUID()
        var predictions: [SleepStagePrediction] = []
        for index in 0..<120 {
            let awake = index < 40
            let probabilities = SleepStageProbabilities(
                awake: awake ? 0.7 : 0.1, rem: 0.1, light: awake ? 0.1 : 0.7, deep: 0.1)
            let epoch = DateInterval(start: start.addingTimeInterval(Double(index) * 30), duration: 30)
            predictions.append(
                SleepStagePrediction(stage: awake ? .awake : .light, interval: epoch, probabilities: probabilities))
        }
        let intervals = [
            SleepStageInterval(stage: .awake, interval: DateInterval(start: start, duration: 1200)),
            SleepStageInterval(
                stage: .light, interval: DateInterval(start: start.addingTimeInterval(1200), duration: 2400)),
        ]
        let rates = (1...50).map {
            BreathingRate(timestamp: start.addingTimeInterval(Double($0) * 60), bpm: 14, confidence: 0.8, sessionId: id)
        }
        let snore = Event(
            type: .snoring, interval: DateInterval(start: start.addingTimeInterval(1800), duration: 4),
            probability: 0.9, source: .audio, sessionId: id)
        return AnalysisResult(
            sessionId: id, startTime: start, endTime: end, timeZone: TimeZone(identifier: "Europe/Stockholm") ?? .gmt,
            events: [snore], breathingRates: rates, sleepStageIntervals: staged ? intervals : [],
            sleepStagePredictions: staged ? predictions : [],
            statistics: staged
                ? SleepStatistics(
                    totalSleepDuration: 2400, sleepOnsetLatency: 1200, sleepEfficiency: 2400.0 / 3600,
                    sleepStageDurations: [.awake: 1200, .light: 2400, .deep: 0, .rem: 0], timeInBed: 3600) : nil,
            warnings: warning.map { [AnalysisWarning(kind: .lowSampleRate, message: $0)] } ?? [],
            stagingBasis: basis.map { StagingBasis(mode: $0) })
    }

    func test_quoted_text_is_escaped_and_an_unstaged_night_says_why_it_has_no_score() {
        let result = night(staged: false, basis: nil, warning: "<script>alert('x')</script> & \"more\"")
        let html = NightReportHTML.render([
            NightReportHTML.Night(result: result, score: SleepScoring.score(result: result))
        ])
        XCTAssertFalse(html.contains("<script"), html)
        XCTAssertTrue(html.contains("&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; &quot;more&quot;"), html)
        XCTAssertTrue(html.contains("No score: the recording was not staged."), html)
        XCTAssertFalse(html.contains("<span class=\"score-number\">"), "no number is shown for an unstaged night")
        XCTAssertFalse(html.contains("id=\"sound-level\""), "no card for a level that was not measured: \(html)")
        XCTAssertFalse(html.contains("id=\"stage-probabilities\""), "no probabilities for an unstaged night")
        XCTAssertTrue(html.contains("<section id=\"audio-health\" class=\"notice\""), "the warning has its card")
    }

    func test_a_sound_only_night_is_flagged_as_not_validated_and_a_staged_one_is_scored() {
        let result = night(staged: true, basis: .soundOnly)
        let html = NightReportHTML.render([
            NightReportHTML.Night(result: result, score: SleepScoring.compute(result: result))
        ])
        XCTAssertTrue(html.contains("<section id=\"about\" class=\"method notice\""), html)
        XCTAssertTrue(
            html.contains(
                "Staged from sound only (not validated against polysomnography). Stages from these inputs are "
                    + "plausible, not measured: an estimate."), html)
        XCTAssertTrue(html.contains("<span class=\"score-number\">"), html)
        // 23:00 UTC is midnight in Stockholm: the night of Tuesday, written out, with its zone and offset.
        XCTAssertTrue(html.contains("<h1>Night of Tuesday 1 December 2026</h1>"), html)
        XCTAssertTrue(html.contains("In bed 00:00 – 01:00, 1 h 00 min; times in Europe/Stockholm (UTC+1)"), html)
        XCTAssertFalse(html.contains(result.sessionId.uuidString), "no session id for people")
        XCTAssertFalse(html.contains(result.sessionId.uuidString.lowercased()), "no session id for people")
    }

    func test_the_headline_comes_first_then_the_night_over_time_and_only_the_cards_the_night_has() throws {
        let staged = night(staged: true, basis: .activity)
        let html = NightReportHTML.render([
            NightReportHTML.Night(result: staged, score: SleepScoring.compute(result: staged))
        ])
        let order = ["headline", "hypnogram", "stage-probabilities", "snoring", "breathing", "statistics", "about"]
        let positions = try order.map { id in try XCTUnwrap(html.range(of: "<section id=\"\(id)\"")?.lowerBound, id) }
        XCTAssertEqual(positions, positions.sorted(), "cards in reading order: \(order)")
        let glance = try XCTUnwrap(html.components(separatedBy: "<section id=\"headline\"").last)
            .components(separatedBy: "</section>")[0]
        for figure in [
            "Total sleep", "Efficiency", "Time in bed", "Fell asleep", "<span class=\"score-number\">", "stage-bar",
        ] {
            XCTAssertTrue(glance.contains(figure), "the headline has \(figure): \(glance)")
        }
        XCTAssertTrue(glance.contains("<dd>40 min</dd>"), "total sleep: \(glance)")
        XCTAssertTrue(glance.contains("Light <span class=\"legend-value\">40 min, 67 %</span>"), glance)
        XCTAssertTrue(html.contains("<p>1 snoring event.</p>"), "one event, singular: \(html)")
        XCTAssertFalse(html.contains("(s)"), "no '(s)' plurals")
        XCTAssertFalse(html.contains("id=\"smart-alarm\""), "no alarm was set")
        XCTAssertFalse(html.contains("id=\"audio-health\""), "a clean night has no problems card")

        var quiet = staged
        quiet.events = []
        quiet.breathingRates = []
        quiet.statistics?.snoreSessions = []
        let quietHtml = NightReportHTML.render([NightReportHTML.Night(result: quiet, score: nil)])
        for absent in ["snoring", "breathing", "sound-level"] {
            XCTAssertFalse(quietHtml.contains("id=\"\(absent)\""), "no \(absent) card for a night without it")
        }
        XCTAssertFalse(quietHtml.contains("0 snoring"), quietHtml)
        XCTAssertTrue(quietHtml.contains("<h2 id=\"hypnogram-title\">Sleep stages</h2>"), "no events in the title")
    }

    func test_a_staged_night_has_one_confidence_card_and_an_unstaged_one_only_its_breathing_coverage() throws {
        // Given: 40 epochs awake at 0.7, 80 light at 0.7, 50 breathing rates over an hour (windows end every 30 s
        // from minute 1: 119)
        let staged = night(staged: true, basis: .activity)
        let html = NightReportHTML.render([NightReportHTML.Night(result: staged, score: nil)])

        // Then: the card, with the ranges and the coverage the result's confidence gives
        let card = try XCTUnwrap(html.components(separatedBy: "<section id=\"confidence\"").dropFirst().first)
        XCTAssertEqual(html.components(separatedBy: "<section id=\"confidence\"").count, 2, "one card")
        let range = try XCTUnwrap(staged.confidence?.totalSleepMinutes)
        XCTAssertLessThan(range.lower, 40)
        XCTAssertGreaterThan(range.upper, 40)
        XCTAssertTrue(card.contains("<th scope=\"row\">Total sleep range</th>"), card)
        XCTAssertTrue(
            card.contains("<th scope=\"row\">Breathing covered</th><td>42 % of the half-minutes have a rate</td>"), card
        )
        XCTAssertTrue(card.contains("70 % mean probability of the stage shown"), card)

        let unstaged = night(staged: false, basis: nil)
        let other = NightReportHTML.render([NightReportHTML.Night(result: unstaged, score: nil)])
        let otherCard = try XCTUnwrap(other.components(separatedBy: "<section id=\"confidence\"").dropFirst().first)
        XCTAssertFalse(otherCard.contains("Total sleep range"), otherCard)
        XCTAssertTrue(otherCard.contains("Breathing covered"), otherCard)
    }

    func test_every_chart_has_a_table_of_its_figures_and_the_stage_charts_one_legend() throws {
        let result = night(staged: true, basis: .activity)
        let html = NightReportHTML.render([
            NightReportHTML.Night(
                result: result, score: SleepScoring.compute(result: result), soundLevel: levels(calibration: nil))
        ])
        let sections = html.components(separatedBy: "<section ").dropFirst()
        var charts = 0
        for section in sections where section.contains("role=\"img\"") {
            charts += section.components(separatedBy: "role=\"img\"").count - 1
            XCTAssertTrue(section.contains("<table>"), "a chart with its table: \(section.prefix(200))")
            XCTAssertTrue(section.contains("<th scope=\"col\">"), "columns with headers")
        }
        XCTAssertEqual(charts, 5, "stage bar, hypnogram with events, probabilities, breathing, sound level")
        let legend = StageColours.legendHTML()
        XCTAssertEqual(html.components(separatedBy: legend).count - 1, 2, "the hypnogram's and probabilities' legend")
        for stage in SleepStage.allCases {
            XCTAssertTrue(legend.contains("fill=\"\(StageColours.colour(stage))\""), "\(stage) in the legend")
        }
    }

    func test_the_sound_level_is_relative_and_uncalibrated_unless_a_calibration_is_given() throws {
        let result = night(staged: true, basis: .activity)
        func page(_ calibration: LevelCalibration?) -> String {
            NightReportHTML.render([
                NightReportHTML.Night(result: result, score: nil, soundLevel: levels(calibration: calibration))
            ])
        }
        let relative = page(nil)
        XCTAssertTrue(relative.contains("Sound level (relative, uncalibrated)"), relative)
        XCTAssertTrue(relative.contains("Relative level, uncalibrated: the loudest minute was 6.5 dB above"), relative)
        XCTAssertFalse(relative.contains("dB(A) SPL"), "an uncalibrated level is not a sound pressure level")
        XCTAssertFalse(relative.contains("LAeq"), relative)
        let calibrated = page(LevelCalibration(offsetDb: 100))
        XCTAssertTrue(calibrated.contains("LAeq 43.5 dB(A) SPL over 60 measured minutes"), calibrated)
        XCTAssertTrue(calibrated.contains("dB SPL = dBFS + 100.0 dB"), calibrated)
        XCTAssertFalse(calibrated.contains("uncalibrated"), calibrated)
    }

    /// An hour of levels from 23:00: two frames a minute, 40 dB and 40 to 49 dB.
    private func levels(calibration: LevelCalibration?) -> SoundLevelTimeline {
        let collector = SoundLevelCollector(calibration: calibration)
        for minute in 0..<60 {
            collector.onAudioAnalysisBatchCompleted(
                sessionId: UUID(), audioSamples: [], audioSampleRate: 16_000,
                audioStartTime: start.addingTimeInterval(Double(minute) * 60),
                audioEndTime: start.addingTimeInterval(Double(minute + 1) * 60), audioProbability: [:],
                eventsStarted: [], eventsEnded: [], dbSpl: [40, Float(40 + minute % 10)])
        }
        return collector.timeline
    }

    func test_two_nights_on_one_page_keep_their_section_ids_apart_and_every_chart_is_well_formed_svg() throws {
        let result = night(staged: true, basis: .activity)
        let nights = ["primary", "secondary"].map {
            NightReportHTML.Night(
                result: result, score: SleepScoring.compute(result: result), soundLevel: levels(calibration: nil),
                title: $0)
        }
        let html = NightReportHTML.render(nights)
        let ids = html.components(separatedBy: " id=\"").dropFirst().map { $0.prefix { $0 != "\"" } }
        XCTAssertEqual(Set(ids).count, ids.count, "ids are unique: \(ids)")
        XCTAssertTrue(ids.contains("primary-hypnogram") && ids.contains("secondary-sound-level"), "\(ids)")
        XCTAssertTrue(html.contains("<h2>primary</h2>") && html.contains("<h3 id=\"primary-headline-title\">"), html)
        let charts = html.components(separatedBy: "<svg xmlns").dropFirst().map {
            "<svg xmlns" + $0.components(separatedBy: "</svg>")[0] + "</svg>"
        }
        XCTAssertEqual(charts.count, 10, "stage bar, hypnogram, probabilities, breathing and sound level, twice")
        for chart in charts {
            let parser = XMLParser(data: Data(chart.utf8))
            XCTAssertTrue(parser.parse(), "\(parser.parserError.map { "\($0)" } ?? ""): \(chart.prefix(300))")
        }
    }

    func test_the_sound_level_collector_keeps_the_energy_mean_of_each_clock_minute() {
        let collector = SoundLevelCollector()
        let id = UUID()
        // 23:00:00–23:01:30: three 30-s batches, two frames each; the third falls in the next minute.
        for (index, levels) in [[60, 60], [70, 70], [50, 50]].enumerated() {
            collector.onAudioAnalysisBatchCompleted(
                sessionId: id, audioSamples: [], audioSampleRate: 16_000,
                audioStartTime: start.addingTimeInterval(Double(index) * 30),
                audioEndTime: start.addingTimeInterval(Double(index + 1) * 30), audioProbability: [:],
                eventsStarted: [], eventsEnded: [], dbSpl: levels.map(Float.init))
        }
        let minutes = collector.timeline.minutes
        XCTAssertEqual(minutes.map(\.start), [start, start.addingTimeInterval(60)])
        XCTAssertEqual(minutes.map(\.frameCount), [4, 2])
        XCTAssertEqual(minutes[0].leq, 10 * log10((2e6 + 2e7) / 4), accuracy: 1e-9)
        XCTAssertEqual(minutes[1].leq, 50, accuracy: 1e-9)
        XCTAssertEqual(collector.timeline.leq ?? 0, 10 * log10((2e6 + 2e7 + 2e5) / 6), accuracy: 1e-9)
    }
}
