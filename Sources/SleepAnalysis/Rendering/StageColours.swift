/// The colour of each sleep stage and of snoring, the same in the hypnogram and every chart of the night report.
enum StageColours {
    /// The fill of each stage.
    static let stages: [SleepStage: String] = [
        .awake: "#e4572e", .rem: "#a05cd5", .light: "#4ea5d9", .deep: "#1d3b8f",
    ]
    /// The mark of snoring.
    static let snoring = "#f2a541"

    /// The fill of `stage`.
    static func colour(_ stage: SleepStage) -> String { stages[stage] ?? "#888888" }
}
