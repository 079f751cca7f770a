import Foundation

/// The wrist's (or phone's) z-angle, the angle between the device's z axis and the horizontal plane, per 5-second
/// epoch of an accelerometer file: `atan(z / √(x² + y²))` in degrees, of the epoch's mean x, y and z. An epoch
/// without readings has none. Read in one pass, keeping only per-epoch sums, so a week at 100 Hz fits in memory.
struct ZAngleEpochs {
    /// The epoch length in seconds.
    static let epochSeconds = 5.0

    /// The start of the first epoch (the file's first reading).
    let origin: Date
    /// The angle of each epoch in degrees, nil where there were no readings.
    let angles: [Double?]

    /// Reads `url`.
    ///
    /// - Parameters:
    ///   - url: An accelerometer CSV file (`AccelerometerCSVReader`'s layouts and units).
    ///   - startTime: What relative timestamps count from.
    ///   - localZone: The zone of timestamps written without one.
    /// - Throws: `SleepCycleSdkError.invalidInput` for a missing or malformed file.
    init(url: URL, startTime: Date, localZone: TimeZone?) throws {
        var sums: [(x: Double, y: Double, z: Double, count: Int)] = []
        var first: Date?
        do {
            let reader = try AccelerometerCSVReader(url: url, startTime: startTime, localZone: localZone)
            while let sample = try reader.next() {
                let origin = first ?? sample.timestamp
                first = origin
                let offset = sample.timestamp.timeIntervalSince(origin)
                guard offset >= 0 else { continue }  // out of order before the first: no epoch to hold it
                let index = Int(offset / Self.epochSeconds)
                if index >= sums.count {
                    sums += repeatElement((x: 0.0, y: 0.0, z: 0.0, count: 0), count: index + 1 - sums.count)
                }
                sums[index].x += sample.x
                sums[index].y += sample.y
                sums[index].z += sample.z
                sums[index].count += 1
            }
        } catch {
            throw error.sdkError
        }
        origin = first ?? startTime
        angles = sums.map { sum in
            guard sum.count > 0 else { return nil }
            return atan2(sum.z, (sum.x * sum.x + sum.y * sum.y).squareRoot()) * 180 / .pi
        }
    }

    /// Epochs given directly (for the finder's own checks).
    init(origin: Date, angles: [Double?]) {
        self.origin = origin
        self.angles = angles
    }
}
