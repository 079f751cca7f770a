import Foundation

/// Why a multi-day sensor file could not be split into nights (`RestPeriodFinder`).
public enum NightSplitError: Error, Hashable, LocalizedError {
    /// The file holds no rest period long enough to be a night: no 30 minutes in which the device lay (almost)
    /// still, for the interval the readings cover.
    case noRestPeriod(readings: DateInterval)

    /// What went wrong and what to do.
    public var errorDescription: String? {
        switch self {
        case .noRestPeriod(let readings):
            "no rest period of 30 minutes or more in the accelerometer readings from \(readings.start) to "
                + "\(readings.end): no night to analyse (is the file from a device that was worn or in bed?)"
        }
    }
}
