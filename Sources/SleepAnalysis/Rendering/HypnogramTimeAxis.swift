import Foundation

/// The hypnogram's time axis: a tick step chosen by the night's length (5 minutes for a short recording up to two
/// hours for a long one), with ticks on the multiples of the step in the session's time zone.
enum HypnogramTimeAxis {
    /// The steps to choose from, in minutes.
    static let stepsInMinutes = [5, 10, 15, 30, 60, 120]
    /// The most ticks a night gets (one more when the night starts on a tick).
    static let maximumTicks = 10

    /// The smallest step that keeps the ticks at most `maximumTicks` over `span`.
    ///
    /// - Parameter span: The night's length in seconds.
    /// - Returns: The step in minutes.
    static func stepInMinutes(for span: TimeInterval) -> Int {
        stepsInMinutes.first { Double($0 * 60 * maximumTicks) >= span } ?? 180
    }

    /// The tick times from `start` to `end`: every multiple of the step (counted from local midnight) in between.
    ///
    /// - Parameters:
    ///   - start: The night's start.
    ///   - end: The night's end.
    ///   - zone: The session's time zone.
    /// - Returns: The ticks, earliest first.
    static func ticks(from start: Date, to end: Date, in zone: TimeZone) -> [Date] {
        let step = Double(stepInMinutes(for: end.timeIntervalSince(start)) * 60)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let sinceMidnight = start.timeIntervalSince(calendar.startOfDay(for: start))
        var tick = start.addingTimeInterval((sinceMidnight / step).rounded(.up) * step - sinceMidnight)
        var ticks: [Date] = []
        while tick <= end {
            ticks.append(tick)
            tick = tick.addingTimeInterval(step)
        }
        return ticks
    }
}
