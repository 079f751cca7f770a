import Foundation
import SleepAnalysis
import SleepAnalysisEvaluation

/// Formats a staging evaluation as stable JSON or as a short text table.
enum StagingReportFormatter {
    /// JSON: whole-night `fourClass`, `threeClass`, `sleepWake`, `epochs`, `expectedCalibrationError`,
    /// `reliability`, `intervals`, `fourClassKappaSpread` and `subjects` at the top level, and `realTime` with the
    /// same figures from the causal predictions. Keys are sorted; NaN becomes null.
    static func json(_ evaluation: StagingEvaluation) throws -> String {
        var top = metrics(evaluation.wholeNight).merging(summary(evaluation.wholeNightSummary)) { $1 }
        top["realTime"] = metrics(evaluation.realTime).merging(summary(evaluation.realTimeSummary)) { $1 }
        top["totalSleepRange"] = [
            "coverage": number(evaluation.totalSleepRangeCoverage),
            "medianWidthMinutes": number(evaluation.totalSleepRangeMedianWidth),
        ]
        top["subjects"] = evaluation.subjects.map { subject -> [String: Any] in
            var entry = metrics(subject.wholeNight)
            entry["subject"] = subject.subject
            entry["expectedCalibrationError"] = number(subject.wholeNightReliability.expectedCalibrationError)
            var realTime = metrics(subject.realTime)
            realTime["expectedCalibrationError"] = number(subject.realTimeReliability.expectedCalibrationError)
            entry["realTime"] = realTime
            entry["totalSleep"] = [
                "scoredMinutes": subject.totalSleep.scored, "stagedMinutes": subject.totalSleep.staged,
                "rangeLower": subject.totalSleep.range.lower, "rangeUpper": subject.totalSleep.range.upper,
            ]
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
        func calibration(_ label: String, _ summary: StagingEvaluation.ContextSummary) -> String {
            func interval(_ value: BootstrapInterval?) -> String {
                value.map { String(format: "[%.3f, %.3f]", $0.lower, $0.upper) } ?? "[–]"
            }
            return String(
                format: "%@ expected calibration error %.3f %@ | 95 %% intervals over subjects: 4-class kappa %@ "
                    + "sleep/wake kappa %@", label, summary.reliability.expectedCalibrationError,
                interval(summary.expectedCalibrationErrorInterval), interval(summary.fourClassKappaInterval),
                interval(summary.sleepWakeKappaInterval))
        }
        var lines = [
            line("whole night", evaluation.wholeNight), line("real time  ", evaluation.realTime),
            calibration("whole night", evaluation.wholeNightSummary),
            calibration("real time  ", evaluation.realTimeSummary),
            String(
                format:
                    "total sleep: the 90 %% range held the scored total on %.0f %% of nights (median width %.0f min)",
                evaluation.totalSleepRangeCoverage * 100, evaluation.totalSleepRangeMedianWidth),
        ]
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

    /// `expectedCalibrationError`, `reliability` (the diagram's bins), the bootstrap `intervals` and the per-subject
    /// `fourClassKappaSpread` (lowest, median, highest).
    private static func summary(_ s: StagingEvaluation.ContextSummary) -> [String: Any] {
        func interval(_ value: BootstrapInterval?) -> Any {
            guard let value else { return NSNull() }
            return [
                "lower": number(value.lower), "upper": number(value.upper), "level": value.level,
                "replicates": value.replicates,
            ] as [String: Any]
        }
        return [
            "expectedCalibrationError": number(s.reliability.expectedCalibrationError),
            "reliability": s.reliability.bins.map { bin -> [String: Any] in
                [
                    "lower": bin.lower, "upper": bin.upper, "epochs": bin.epochs,
                    "meanConfidence": number(bin.meanConfidence), "accuracy": number(bin.accuracy),
                ]
            },
            "intervals": [
                "fourClassKappa": interval(s.fourClassKappaInterval),
                "sleepWakeKappa": interval(s.sleepWakeKappaInterval),
                "expectedCalibrationError": interval(s.expectedCalibrationErrorInterval),
            ],
            "fourClassKappaSpread": s.fourClassKappaSpread.map(number),
        ]
    }

    private static func number(_ value: Double) -> Any { value.isFinite ? value : NSNull() }
}
