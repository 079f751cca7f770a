import SleepAnalysis

/// Minutes from sleep onset (the first epoch of any sleep stage) to the first deep-sleep epoch of a 30-second
/// epoch sequence, or nil when it has no sleep or no deep sleep.
///
/// The composed-night evaluation measures it on the staged epochs and on the scored hypnogram alike, so an early
/// deep sleep in the staging can be told from a night that really had one (6 of the 39 Sleep-EDF nights reach
/// deep sleep within 15 minutes of onset).
///
/// - Parameter stages: One stage per epoch; nil for an epoch without one (not staged or not scored).
/// - Returns: The latency in minutes, a multiple of 0.5.
package func firstDeepSleepMinutesAfterOnset(_ stages: [SleepStage?]) -> Double? {
    guard let onset = stages.firstIndex(where: { $0 != nil && $0 != .awake }),
        let deep = stages[onset...].firstIndex(of: .deep)
    else { return nil }
    return Double(deep - onset) / 2
}
