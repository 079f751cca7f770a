import Foundation

/// One accelerometer reading, in g.
public struct AccelerometerSample: Sendable, Hashable {
    /// When it was taken.
    public var timestamp: Date
    /// Acceleration along x, in g.
    public var x: Double
    /// Acceleration along y, in g.
    public var y: Double
    /// Acceleration along z, in g.
    public var z: Double

    /// Creates a reading.
    ///
    /// - Parameters:
    ///   - timestamp: When it was taken.
    ///   - x: Acceleration along x, in g.
    ///   - y: Acceleration along y, in g.
    ///   - z: Acceleration along z, in g.
    public init(timestamp: Date, x: Double, y: Double, z: Double) {
        self.timestamp = timestamp
        self.x = x
        self.y = y
        self.z = z
    }
}

/// One heart-rate reading from a wearable.
public struct HeartRateSample: Sendable, Hashable {
    /// When it was taken.
    public var timestamp: Date
    /// Beats per minute.
    public var bpm: Double

    /// The rates a sleeper's heart can have (bpm). A reading outside them is a wearable's glitch: staging leaves it
    /// out, and the result says how many were left out (`AnalysisWarning.Kind.implausibleHeartRates`).
    public static let plausibleBpm: ClosedRange<Double> = 20...250

    /// Creates a reading.
    ///
    /// - Parameters:
    ///   - timestamp: When it was taken.
    ///   - bpm: Beats per minute.
    public init(timestamp: Date, bpm: Double) {
        self.timestamp = timestamp
        self.bpm = bpm
    }
}

/// An epoch-level actigraphy reading (activity counts from a device's own pipeline).
public struct ActivityCountSample: Sendable, Hashable {
    /// The start of the epoch.
    public var timestamp: Date
    /// The device's activity count for the epoch.
    public var activityCount: Double

    /// Creates a reading.
    ///
    /// - Parameters:
    ///   - timestamp: When it was taken.
    ///   - activityCount: The device's activity count for the epoch.
    public init(timestamp: Date, activityCount: Double) {
        self.timestamp = timestamp
        self.activityCount = activityCount
    }
}
