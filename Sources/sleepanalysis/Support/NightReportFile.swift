import Foundation
import SleepAnalysis

/// `--report FILE`: writes the HTML night report (`NightReportHTML`) of a command's results.
enum NightReportFile {
    /// The option's name.
    static let option = "report"

    /// Writes the report of `reports` to `path`, with the sound level of `audio` when there is a recording.
    ///
    /// - Parameters:
    ///   - reports: The results and scores, with their channel names when there are several.
    ///   - audio: The recording the nights were analysed from, measured for the sound-level chart; nil for none.
    ///   - path: Where the HTML goes.
    /// - Throws: `CommandLineError` when the recording cannot be measured or the file cannot be written.
    static func write(
        _ reports: [(channel: String?, report: AnalysisReport)], audio: URL?, to path: String
    ) throws {
        let soundLevel: SoundLevelReport?
        do {
            soundLevel = try audio.map { try SoundLevelAnalysis.analyze(file: $0) }
        } catch {
            throw CommandLineError.badData("cannot measure the sound level of \(audio?.path ?? ""): \(error)")
        }
        let nights = reports.map {
            NightReportHTML.Night(
                result: $0.report.result, score: $0.report.score, soundLevel: soundLevel, title: $0.channel)
        }
        do {
            try Data(NightReportHTML.render(nights).utf8).write(to: URL(fileURLWithPath: path))
        } catch {
            throw CommandLineError(kind: .failure, message: "cannot write \(path): \(error.localizedDescription)")
        }
    }
}
