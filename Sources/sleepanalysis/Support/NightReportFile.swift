import Foundation
import SleepAnalysis

/// `--report FILE`: writes the HTML night report (`NightReportHTML`) of a command's results.
enum NightReportFile {
    /// The option's name.
    static let option = "report"

    /// Writes the report of `reports` to `path`.
    ///
    /// - Parameters:
    ///   - reports: The results and scores, with their channel names when there are several.
    ///   - soundLevel: The sound level the analysis measured (`SoundLevelCollector`); nil when not collected.
    ///   - path: Where the HTML goes.
    /// - Throws: `CommandLineError` when the file cannot be written.
    static func write(
        _ reports: [(channel: String?, report: AnalysisReport)], soundLevel: SoundLevelTimeline?, to path: String
    ) throws {
        let nights = reports.map {
            NightReportHTML.Night(
                result: $0.report.result, score: $0.report.score, soundLevel: soundLevel, title: $0.channel)
        }
        do {
            try Data(NightReportHTML.render(nights).utf8).write(to: URL(fileURLWithPath: path))
        } catch {
            throw CommandLineError(kind: .outputFailed, message: "cannot write \(path): \(error.localizedDescription)")
        }
    }
}
