/// The one palette of everything drawn for people: the colour of each sleep stage, the same in the hypnogram, the
/// stage probabilities, the stage-share bar and the trends, and the colours of events and measured lines.
///
/// The stages are told apart by lightness as well as by hue, so that they survive greyscale printing and the
/// common colour-vision deficiencies: CIE L* deep 17, REM 41, awake 58, light 80 (at least 15 apart), and at least
/// ΔE 20 between any two under simulated protanopia, deuteranopia and tritanopia (`StageColoursTests`). Deep and
/// light, the pair people compare most, are the darkest and the lightest.
enum StageColours {
    /// The fill of each stage.
    static let stages: [SleepStage: String] = [
        .awake: "#e0662f", .rem: "#8e3f9e", .light: "#8fd0f5", .deep: "#17245e",
    ]
    /// The stages top to bottom, as the hypnogram draws them and every legend lists them.
    static let order: [SleepStage] = [.awake, .rem, .light, .deep]
    /// The mark of a detected event (every lane; its label says which).
    static let event = "#37474f"
    /// The mark of snoring in the standalone hypnogram.
    static let snoring = event
    /// The breathing-rate line.
    static let breathing = "#00796b"
    /// The sound-level line.
    static let soundLevel = "#6d4c41"

    /// The fill of `stage`.
    static func colour(_ stage: SleepStage) -> String { stages[stage] ?? "#888888" }

    /// A stage's name for people: "Awake", "REM", "Light", "Deep".
    static func name(_ stage: SleepStage) -> String {
        switch stage {
        case .awake: "Awake"
        case .rem: "REM"
        case .light: "Light"
        case .deep: "Deep"
        }
    }

    /// An HTML legend of the stage colours (a list, each entry a swatch and the stage's name), printed as shown.
    ///
    /// - Parameter extra: More text per stage (its time and share), after the name.
    /// - Returns: The markup.
    static func legendHTML(_ extra: [SleepStage: String] = [:]) -> String {
        var html = "<ul class=\"legend\">"
        for stage in order {
            html += "<li>\(swatch(colour(stage)))\(name(stage))"
            if let more = extra[stage] { html += " <span class=\"legend-value\">\(HTMLEscaping.escape(more))</span>" }
            html += "</li>"
        }
        return html + "</ul>\n"
    }

    /// A small square of `colour` (SVG, so that it prints without background graphics), hidden from screen
    /// readers: the text beside it names it.
    static func swatch(_ colour: String) -> String {
        "<svg class=\"swatch\" width=\"12\" height=\"12\" viewBox=\"0 0 12 12\" aria-hidden=\"true\" focusable=\"false\">"
            + "<rect width=\"12\" height=\"12\" fill=\"\(colour)\"/></svg>"
    }
}
