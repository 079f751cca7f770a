import Foundation

/// Clock-time arithmetic for sleep timing: local hours, wrap-around means and differences, and ramps.
enum LocalClock {
    /// The local clock time of an instant, in hours after noon, 12..<36 (23:00 is 23, 01:30 is 25.5).
    ///
    /// Night-time values stay continuous across midnight this way.
    ///
    /// - Parameters:
    ///   - date: The instant.
    ///   - timeZone: The zone of the local clock.
    /// - Returns: Hours after the preceding noon.
    static func hoursAfterNoon(_ date: Date, in timeZone: TimeZone) -> Double {
        let local = date.timeIntervalSince1970 + Double(timeZone.secondsFromGMT(for: date))
        let hours = (local / 3600).truncatingRemainder(dividingBy: 24)
        let clock = hours < 0 ? hours + 24 : hours
        return clock < 12 ? clock + 24 : clock
    }

    /// Folds any hour value into 12..<36.
    static func normalised(_ hoursAfterNoon: Double) -> Double {
        let wrapped = (hoursAfterNoon - 12).truncatingRemainder(dividingBy: 24)
        return (wrapped < 0 ? wrapped + 24 : wrapped) + 12
    }

    /// The circular mean of clock times on the 24-hour circle.
    ///
    /// - Parameter hours: Clock times in hours (any representation).
    /// - Returns: The mean, in hours after noon (12..<36); nil for no values or times spread evenly around.
    static func circularMean(_ hours: [Double]) -> Double? {
        guard !hours.isEmpty else { return nil }
        let angles = hours.map { $0 / 24 * 2 * Double.pi }
        let x = angles.map(cos).reduce(0, +)
        let y = angles.map(sin).reduce(0, +)
        guard x * x + y * y > 1e-12 else { return nil }
        return normalised(atan2(y, x) / (2 * Double.pi) * 24)
    }

    /// The shortest distance between two clock times around the 24-hour circle, in hours (0...12).
    static func distance(_ a: Double, _ b: Double) -> Double {
        let difference = abs(a - b).truncatingRemainder(dividingBy: 24)
        return min(difference, 24 - difference)
    }

    /// A falling ramp: 1 up to `full`, 0 from `zero`, linear between (`full < zero`).
    static func fallingRamp(_ value: Double, full: Double, zero: Double) -> Double {
        if value <= full { return 1 }
        if value >= zero { return 0 }
        return (zero - value) / (zero - full)
    }

    /// A rising ramp: 0 up to `zero`, 1 from `full`, linear between (`zero < full`).
    static func risingRamp(_ value: Double, zero: Double, full: Double) -> Double {
        if value >= full { return 1 }
        if value <= zero { return 0 }
        return (value - zero) / (full - zero)
    }
}
