import Foundation

/// Holds a replay to its pace: a piece of data whose media time is `t` is released when the monotonic clock
/// reaches `origin + (t − mediaOrigin) / speed`. Timestamps never depend on the pace; only the waiting does.
struct ReplayPacer {
    /// The multiple of real time, or nil for as fast as possible.
    let speed: Double?

    private var wallOrigin: UInt64 = 0
    private var mediaOrigin = Date(timeIntervalSince1970: 0)

    /// Checks the pace.
    ///
    /// - Throws: `SleepCycleSdkError.invalidConfiguration` for a speed that is not a positive finite number.
    init(pace: ReplayPace) throws {
        switch pace {
        case .asFastAsPossible:
            speed = nil
        case .realTime:
            speed = 1
        case .speed(let multiple):
            guard multiple.isFinite, multiple > 0 else {
                throw SleepCycleSdkError.invalidConfiguration("replay speed must be a positive number, not \(multiple)")
            }
            speed = multiple
        }
    }

    /// Starts the clock: `mediaTime` is released now.
    mutating func begin(at mediaTime: Date) {
        wallOrigin = DispatchTime.now().uptimeNanoseconds
        mediaOrigin = mediaTime
    }

    /// Waits until data at `mediaTime` is due (at once when replaying as fast as possible).
    ///
    /// - Returns: false when the source was asked to stop meanwhile.
    func wait(until mediaTime: Date, lifecycle: SourceLifecycle) -> Bool {
        guard let speed else { return !lifecycle.isStopRequested }
        let mediaSeconds = mediaTime.timeIntervalSince(mediaOrigin)
        guard mediaSeconds > 0 else { return !lifecycle.isStopRequested }
        let deadline = wallOrigin &+ UInt64((mediaSeconds / speed * 1e9).rounded())
        return lifecycle.sleep(untilUptimeNanoseconds: deadline)
    }
}
