import Foundation

/// One labelled line of a night's summary ("Total sleep", "6 h 42 min").
package struct NightReportFact: Sendable, Hashable {
    /// What the value is.
    package var label: String
    /// The value, formatted for people.
    package var value: String

    /// Creates a fact.
    ///
    /// - Parameters:
    ///   - label: What the value is.
    ///   - value: The value, formatted for people.
    package init(_ label: String, _ value: String) {
        self.label = label
        self.value = value
    }
}

/// The figures of a night as labelled lines, shared by the command line's text report and the HTML night report,
/// so that both say the same thing in the same words.
package enum NightReportFacts {
    /// The statistics (time in bed, sleep, efficiency, onset, awakenings, final wake, stages, snoring), or why
    /// there are none, then which inputs staged the night.
    ///
    /// - Parameter result: The session's result.
    /// - Returns: The lines, in reading order.
    package static func statistics(_ result: AnalysisResult) -> [NightReportFact] {
        var facts: [NightReportFact] = []
        if let stats = result.statistics {
            let zone = result.timeZone
            facts.append(NightReportFact("Time in bed", duration(stats.timeInBed)))
            facts.append(NightReportFact("Total sleep", duration(stats.totalSleepDuration)))
            facts.append(
                NightReportFact(
                    "Sleep efficiency", stats.sleepEfficiency.map { String(format: "%.0f %%", $0 * 100) } ?? "–"))
            facts.append(NightReportFact("Sleep onset", "\(duration(stats.sleepOnsetLatency)) after going to bed"))
            facts.append(NightReportFact("Awakenings", stats.numberOfAwakenings.map(String.init) ?? "–"))
            facts.append(NightReportFact("Final wake", stats.finalWakeTime.map { clock($0, zone) } ?? "–"))
            if let durations = stats.sleepStageDurations {
                let parts = SleepStage.allCases.map { "\($0.rawValue) \(duration(durations[$0] ?? 0))" }
                facts.append(NightReportFact("Stages", parts.joined(separator: ", ")))
            }
            facts.append(
                NightReportFact(
                    "Snoring",
                    stats.snoreSessions.map {
                        "\(duration(stats.snoreTime)) in \(ReportText.count($0.count, "session"))"
                    }
                        ?? duration(stats.snoreTime)))
        } else {
            facts.append(NightReportFact("Sleep staging", notStagedReason))
        }
        if let basis = result.stagingBasis { facts.append(NightReportFact("Staged from", basis.summary)) }
        return facts
    }

    /// What was observed: event counts, breathing rate, audio health and the smart alarm.
    ///
    /// - Parameter result: The session's result.
    /// - Returns: The lines, in reading order.
    package static func observations(_ result: AnalysisResult) -> [NightReportFact] {
        let zone = result.timeZone
        var counts: [EventType: Int] = [:]
        for event in result.events { counts[event.type, default: 0] += 1 }
        let eventText = counts.sorted { $0.key.rawValue < $1.key.rawValue }.map { "\($0.key.rawValue) \($0.value)" }
        var facts = [NightReportFact("Events", eventText.isEmpty ? "none" : eventText.joined(separator: ", "))]
        let rates = result.breathingRates.map(\.bpm).sorted()
        facts.append(
            NightReportFact(
                "Breathing rate",
                rates.isEmpty
                    ? "no periodic breathing detected"
                    : String(
                        format: "median %.1f /min (%.1f–%.1f, ", rates[rates.count / 2], rates.first ?? 0,
                        rates.last ?? 0) + ReportText.count(rates.count, "measurement") + ")"))
        if let health = result.audioStatistics?.healthIntervals, !health.isEmpty {
            let problems = health.filter { $0.status != .healthy }
            let text =
                problems.isEmpty
                ? "healthy throughout"
                : problems.map {
                    "\($0.status.rawValue) \(clock($0.interval.start, zone))–\(clock($0.interval.end, zone)) "
                        + "(\(span($0.interval.duration)))"
                }.joined(separator: ", ")
            facts.append(NightReportFact("Audio health", text))
        }
        for event in result.smartAlarmEvents {
            switch event.type {
            case .armed: facts.append(NightReportFact("Smart alarm", "armed at \(clock(event.timestamp, zone))"))
            case .triggered(let reason):
                facts.append(
                    NightReportFact("Smart alarm", "fired at \(clock(event.timestamp, zone)) (\(reason.rawValue))"))
            }
        }
        return facts
    }

    /// The sleep score and its parts, or why the night has none.
    ///
    /// - Parameters:
    ///   - score: The night's score (`SleepScoring.score`), nil when it has none.
    ///   - reason: Why it has none (`AnalysisResult.scoreUnavailableReason`).
    /// - Returns: The line.
    package static func score(_ score: SleepScore?, unavailable reason: SleepScoreUnavailableReason?) -> NightReportFact
    {
        guard let score else { return NightReportFact("Sleep score", "none: " + (reason ?? .notStaged).message) }
        return NightReportFact(
            "Sleep score",
            String(
                format: "%.0f / 100 (duration %.2f, quality %.2f, routine %.2f)", score.total * 100, score.duration,
                score.quality, score.routine))
    }

    /// Why a night has no statistics (and so no meaningful score).
    package static let notStagedReason =
        "not run (the licence has no sleepStaging feature, or no epoch was complete)"

    /// `2 h 05 min` for a duration in seconds; `–` for none.
    static func duration(_ seconds: Double?) -> String {
        guard let seconds, seconds.isFinite else { return "–" }
        let minutes = Int((seconds / 60).rounded())
        return minutes >= 60 ? String(format: "%d h %02d min", minutes / 60, minutes % 60) : "\(minutes) min"
    }

    /// `12 s` under a minute, else as `duration` (`3 min`, `1 h 05 min`): how long a stretch lasted, which its
    /// start and end clock times, to the minute, do not show when it is short.
    static func span(_ seconds: Double) -> String {
        seconds < 59.5 ? "\(Int(seconds.rounded())) s" : duration(seconds)
    }

    /// `06:42` in `zone`.
    static func clock(_ date: Date, _ zone: TimeZone) -> String { NightChartFrame.clockText(date, zone) }
}
