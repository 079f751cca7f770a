import Foundation

/// Holds a replay to its pace: a piece of data whose media time is `t` is released when the monotonic clock
/// reaches `origin + (t − mediaOrigin) / speed`. Timestamps never depend on the pace; only the waiting does.
struct ReplayPacer {
    /// The speeds accepted, as multiples of real time: from a thousandth (a second of recording takes about 17
    /// minutes) to a million (a night in under a tenth of a second of waiting).
    static let speeds: ClosedRange<Double> = 0.001...1_000_000

    /// The multiple of real time, or nil for as fast as possible.
    let speed: Double?

    private let clock: any MonotonicClock
    private var clockOrigin: UInt64 = 0
    private var mediaOrigin = Date(timeIntervalSince1970: 0)

    /// Checks the pace.
    ///
    /// - Parameters:
    ///   - pace: How fast to replay.
    ///   - clock: The clock to wait on; the system's monotonic clock by default.
    /// - Throws: `SleepCycleSdkError.invalidConfiguration` for a speed outside `speeds` (or not a number).
    init(pace: ReplayPace, clock: any MonotonicClock = SystemMonotonicClock()) throws {
        self.clock = clock
        switch pace {
        case .asFastAsPossible:
            speed = nil
        case .realTime:
            speed = 1
        case .speed(let multiple):
            guard Self.speeds.contains(multiple) else {
                throw SleepCycleSdkError.invalidConfiguration(
                    "replay speed must be from \(Self.speeds.lowerBound) to \(Int(Self.speeds.upperBound)) times "
                        + "real time, not \(multiple)")
            }
            speed = multiple
        }
    }

    /// Starts the clock: `mediaTime` is released now.
    mutating func begin(at mediaTime: Date) {
        clockOrigin = clock.uptimeNanoseconds
        mediaOrigin = mediaTime
    }

    /// Waits until data at `mediaTime` is due (at once when replaying as fast as possible).
    ///
    /// - Returns: false when the source was asked to stop meanwhile.
    func wait(until mediaTime: Date, lifecycle: SourceLifecycle) -> Bool {
        guard let speed else { return !lifecycle.isStopRequested }
        let mediaSeconds = mediaTime.timeIntervalSince(mediaOrigin)
        guard mediaSeconds > 0 else { return !lifecycle.isStopRequested }
        let deadline = Self.deadline(origin: clockOrigin, mediaSeconds: mediaSeconds, speed: speed)
        return lifecycle.sleep(untilUptimeNanoseconds: deadline, on: clock)
    }

    /// The clock time at which media time `mediaSeconds` after the origin is due, saturating at `UInt64.max`
    /// (never, in practice) so that no timestamp and speed can overflow.
    ///
    /// - Parameters:
    ///   - origin: The clock time of the media origin, in nanoseconds.
    ///   - mediaSeconds: Media seconds after the origin.
    ///   - speed: The multiple of real time.
    /// - Returns: The deadline in nanoseconds.
    static func deadline(origin: UInt64, mediaSeconds: Double, speed: Double) -> UInt64 {
        let nanoseconds = (mediaSeconds / speed * 1e9).rounded()
        // 2⁶⁴ is exactly representable, and every Double below it converts to UInt64.
        guard !nanoseconds.isNaN, nanoseconds < 18_446_744_073_709_551_616.0 else { return .max }
        guard nanoseconds > 0 else { return origin }
        let (sum, overflow) = origin.addingReportingOverflow(UInt64(nanoseconds))
        return overflow ? .max : sum
    }
}
