import Foundation

/// A recording's A-weighted sound level as one value per minute (the energy mean of its frames, so a loud second
/// counts as a sound level meter's Leq counts it), placed on the night that started with the recording.
enum SoundLevelTimeline {
    /// One Leq per minute (per longer span when the recording is over eight hours, so that at most 480 remain),
    /// each at the middle of its span.
    ///
    /// - Parameters:
    ///   - report: The recording's sound level (`SoundLevelAnalysis`).
    ///   - start: When the recording began (the session's start).
    /// - Returns: The levels in dB SPL, in time order.
    static func points(_ report: SoundLevelReport, from start: Date) -> [NightLineChart.Point] {
        guard report.frameDuration > 0, !report.frames.isEmpty else { return [] }
        let span = max(60, (report.duration / 480).rounded(.up))
        let framesPerSpan = max(1, Int((span / report.frameDuration).rounded()))
        return stride(from: 0, to: report.frames.count, by: framesPerSpan).map { first in
            let frames = report.frames[first..<min(report.frames.count, first + framesPerSpan)]
            let energy = frames.reduce(0) { $0 + pow(10, $1 / 10) } / Double(frames.count)
            let middle = (Double(first) + Double(frames.count) / 2) * report.frameDuration
            return NightLineChart.Point(time: start.addingTimeInterval(middle), value: 10 * log10(energy))
        }
    }
}
