import Foundation

/// The dead band of accelerometer activity counts: removes a night's running noise floor, causally.
///
/// A phone on the mattress registers breathing motion and sensor noise in every epoch, so its raw count never
/// reaches 0, whereas an actigraph's counts (and the Walch training counts, whose dead band sits at 1.2 times the
/// count of a device at rest) are 0 when the sleeper lies still. The staging features call an epoch still only
/// when its count is near 0, so without a dead band a phone's night never looks still. Each epoch's count becomes
/// `max(0, count − 1.2 × floor)`, where `floor` is the 10th percentile of the raw counts of the last 30 minutes
/// (this epoch included, none later): a sleeper lies still in far more than a tenth of any half hour, so the floor
/// is the resting level. For the first 5 minutes the floor is not known yet and counts pass unchanged (so the start
/// of a session, when few people are asleep, is not taken for stillness). A device whose resting count is 0 has a
/// floor of 0 and keeps its counts.
///
/// The result stays linear in the motion's amplitude: the floor scales with the counts.
struct ActivityNoiseFloor: Sendable {
    /// The recent raw counts, oldest first (at most `windowEpochs`).
    private var recent: [Double] = []

    /// Epochs of history the floor is taken from (30 minutes).
    static let windowEpochs = 60
    /// Epochs of history before the floor is used (5 minutes).
    static let minimumHistory = 10
    /// The percentile of the recent counts taken as the floor.
    static let floorQuantile = 0.1
    /// The dead band in multiples of the floor (Walch et al.'s counts: 18 over a resting 15).
    static let margin = 1.2

    /// Creates a dead band with no history.
    init() {}

    /// The count of the next epoch above the dead band.
    ///
    /// - Parameter count: the epoch's raw count (non-negative).
    /// - Returns: the count minus the dead band, at least 0.
    mutating func removeFloor(from count: Double) -> Double {
        guard count.isFinite else { return count }
        recent.append(count)
        if recent.count > Self.windowEpochs { recent.removeFirst(recent.count - Self.windowEpochs) }
        guard recent.count >= Self.minimumHistory else { return count }
        return max(0, count - Self.margin * floor)
    }

    /// The current floor: the `floorQuantile` of the recent counts (linear interpolation), 0 without history.
    var floor: Double {
        guard !recent.isEmpty else { return 0 }
        let sorted = recent.sorted()
        let position = Self.floorQuantile * Double(sorted.count - 1)
        let lower = Int(position.rounded(.down))
        let upper = min(lower + 1, sorted.count - 1)
        return sorted[lower] + (sorted[upper] - sorted[lower]) * (position - Double(lower))
    }
}
