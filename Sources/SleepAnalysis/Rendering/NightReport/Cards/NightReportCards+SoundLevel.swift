import Foundation

extension NightReportCards {
    /// The sound level, when it was measured. With a calibration (`SoundLevelTimeline.calibration`) the levels are
    /// A-weighted sound pressure levels, dB(A) SPL; without one they are relative: each minute's level above the
    /// night's quietest minute, said to be uncalibrated, since a level from an unknown microphone is not a sound
    /// pressure level.
    static func soundLevel(_ context: NightReportContext) -> NightReportCard? {
        let result = context.result
        guard let timeline = context.night.soundLevel, let leq = timeline.leq, !timeline.minutes.isEmpty else {
            return nil
        }
        let levels = timeline.minutes.map(\.leq)
        let quietest = levels.min() ?? leq
        let loudest = levels.max() ?? leq
        let minutes = ReportText.count(levels.count, "measured minute")
        let text: String
        let axisTitle: String
        let unit: String
        let reference: Double
        if let calibration = timeline.calibration {
            reference = 0
            unit = "dB(A) SPL"
            axisTitle = "dB(A) SPL"
            text =
                String(format: "LAeq %.1f dB(A) SPL over ", leq) + minutes
                + String(
                    format: "; quietest minute %.1f dB(A) SPL, loudest %.1f. Calibrated: dB SPL = dBFS + %.1f dB.",
                    quietest, loudest, calibration.offsetDb)
        } else {
            reference = quietest
            unit = "dB above the quietest minute"
            axisTitle = "dB, relative"
            text =
                String(
                    format: "Relative level, uncalibrated: the loudest minute was %.1f dB above the quietest, the "
                        + "night as a whole (Leq) %.1f dB above it, over ", loudest - quietest, leq - quietest)
                + minutes + ". The microphone was not calibrated, so these are not sound pressure levels: compare "
                + "the minutes of this night with each other. A calibration (sleepanalysis analyze "
                + "--calibration-offset) gives A-weighted sound pressure levels."
        }
        let points = timeline.minutes.map {
            NightLineChart.Point(time: $0.start.addingTimeInterval(30), value: $0.leq - reference)
        }
        var body = "<p>\(HTMLEscaping.escape(text))</p>\n"
        if let chart = NightLineChart(axisTitle: axisTitle, colour: StageColours.soundLevel).render(
            points, over: result)
        {
            body += ReportFigure.html(chart, name: "sound level")
        }
        body += ReportTable.html(
            caption: "sound level", columns: ["Time", "Leq (\(unit))", "Measured minutes"],
            rows: stretches(of: points, over: result, context: context).map {
                let energy = $0.values.reduce(0) { $0 + pow(10, $1 / 10) } / Double($0.values.count)
                return [$0.label, String(format: "%.1f", 10 * log10(energy)), String($0.values.count)]
            })
        let title = timeline.calibration == nil ? "Sound level (relative, uncalibrated)" : "Sound level"
        return NightReportCard(id: "sound-level", title: title, body: body)
    }
}
