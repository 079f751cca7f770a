import Foundation

extension NightReportCards {
    /// The rest of the night's statistics, when it was staged: onset latency, wake after sleep onset, awakenings,
    /// the final wake, and the time in each stage.
    static func details(_ context: NightReportContext) -> NightReportCard? {
        guard let stats = context.result.statistics else { return nil }
        var facts: [(String, String)] = [
            ("Sleep onset latency", ReportText.duration(stats.sleepOnsetLatency)),
            ("Awake after falling asleep", ReportText.duration(stats.wakeAfterSleepOnset)),
        ]
        if let awakenings = stats.numberOfAwakenings {
            facts.append(("Awakenings", ReportText.count(awakenings, "awakening")))
        }
        if let wake = stats.finalWakeTime { facts.append(("Final wake", context.clock(wake))) }
        if let durations = stats.sleepStageDurations {
            for stage in StageColours.order {
                let label = stage == .awake ? "Time awake" : "\(StageColours.name(stage)) sleep"
                facts.append((label, ReportText.duration(durations[stage] ?? 0)))
            }
        }
        return NightReportCard(
            id: "statistics", title: "Sleep details", body: ReportTable.facts(facts, caption: "the night's figures"))
    }
}
