import Foundation
import SleepAnalysis
import SleepAnalysisEvaluation

/// Formats a staging evaluation as stable JSON or as a short text table.
enum StagingReportFormatter {
    /// JSON: whole-night `fourClass`, `threeClass`, `sleepWake`, `epochs`, `subjects` at the top level, and
    /// `realTime` with the same figures from the causal predictions. Keys are sorted; NaN becomes null.
    static func json(_ evaluation: StagingEvaluation) throws -> String {
        var top = metrics(evaluation.wholeNight)
        top["realTime"] = metrics(evaluation.realTime)
        top["subjects"] = evaluation.subjects.map { subject -> [String: Any] in
            var entry = metrics(subject.wholeNight)
            entry["subject"] = subject.subject
            entry["realTime"] = metrics(subject.realTime)
            return entry
        }
        let data = try JSONSerialization.data(withJSONObject: top, options: [.prettyPrinted, .sortedKeys])
        return String(decoding: data, as: UTF8.self)
    }

    /// Text: pooled figures for both contexts, then one line per subject.
    static func text(_ evaluation: StagingEvaluation) -> String {
        func line(_ label: String, _ m: StagingMetrics) -> String {
            String(
                format: "%@ epochs %5d  4-class acc %.3f kappa %.3f | W/NREM/REM acc %.3f kappa %.3f | "
                    + "sleep/wake acc %.3f kappa %.3f wake-spec %.3f sleep-sens %.3f",
                label, m.epochs, m.fourClass.accuracy, m.fourClass.kappa, m.threeClass.accuracy, m.threeClass.kappa,
                m.sleepWake.accuracy, m.sleepWake.kappa, m.sleepWake.wakeSpecificity, m.sleepWake.sleepSensitivity)
        }
        var lines = [line("whole night", evaluation.wholeNight), line("real time  ", evaluation.realTime)]
        for subject in evaluation.subjects {
            lines.append(line(subject.subject.padding(toLength: 11, withPad: " ", startingAt: 0), subject.wholeNight))
        }
        return lines.joined(separator: "\n")
    }

    private static func metrics(_ m: StagingMetrics) -> [String: Any] {
        [
            "epochs": m.epochs,
            "fourClass": [
                "accuracy": number(m.fourClass.accuracy), "kappa": number(m.fourClass.kappa),
                "perStageRecall": m.fourClass.perStageRecall.mapValues(number),
            ] as [String: Any],
            "threeClass": ["accuracy": number(m.threeClass.accuracy), "kappa": number(m.threeClass.kappa)],
            "sleepWake": [
                "accuracy": number(m.sleepWake.accuracy), "kappa": number(m.sleepWake.kappa),
                "wakeSpecificity": number(m.sleepWake.wakeSpecificity),
                "sleepSensitivity": number(m.sleepWake.sleepSensitivity),
            ],
        ]
    }

    private static func number(_ value: Double) -> Any { value.isFinite ? value : NSNull() }
}
