import Foundation

/// The unit an accelerometer CSV file is read in, and how it was decided: stated (a `# units:` comment, the
/// columns' names, or the caller), else detected from the readings' magnitude: at rest an accelerometer measures
/// gravity, so the median of |a| is near 1 in g and near 9.8 in m/s².
public struct AccelerometerUnitReport: Sendable, Equatable, CustomStringConvertible {
    /// How the unit was decided.
    public enum Source: Sendable, Equatable {
        /// Stated by a comment, a column name or the caller (named).
        case stated(String)
        /// Detected from the median magnitude of the first readings.
        case detected(medianMagnitude: Double)
    }

    /// The unit the file's values are in (readings are delivered in g).
    public var unit: AccelerationUnit
    /// How it was decided.
    public var source: Source

    /// The most readings the detection looks at (the file's first).
    static let detectionRows = 512
    /// The median magnitude that separates the units: the geometric mean of 1 and 9.80665, the middle on a log
    /// scale.
    static let detectionBoundary = (AccelerationUnit.standardGravity).squareRoot()

    /// `m/s^2 (detected: median |a| 9.81)`, `g (stated by column 'x_g')`.
    public var description: String {
        switch source {
        case .stated(let origin): "\(unit.rawValue) (stated by \(origin))"
        case .detected(let median): "\(unit.rawValue) (detected: median |a| \(String(format: "%.2f", median)))"
        }
    }

    /// Reads the unit of `url` as the replay will.
    ///
    /// - Parameters:
    ///   - url: An accelerometer CSV file (`timestamp,x,y,z`).
    ///   - startTime: What relative timestamps count from.
    ///   - localZone: The zone of timestamps written without one (nil: they are errors).
    ///   - unit: The unit the caller states, or nil.
    /// - Returns: The unit and how it was decided.
    /// - Throws: `SleepCycleSdkError.invalidInput` for a missing or malformed file or conflicting statements.
    public static func of(
        file url: URL, startTime: Date, localZone: TimeZone? = nil, unit: AccelerationUnit? = nil
    ) throws -> AccelerometerUnitReport {
        do {
            return try AccelerometerCSVReader(url: url, startTime: startTime, unit: unit, localZone: localZone)
                .unitReport
        } catch {
            throw error.sdkError
        }
    }

    /// The unit of readings whose median magnitude is `median`.
    static func unit(forMedianMagnitude median: Double) -> AccelerationUnit {
        median < detectionBoundary ? .g : .metersPerSecondSquared
    }

    /// Detects the unit from the first `detectionRows` readings of `rows` (a reader of its own, which this uses
    /// up); a malformed row ends the sample (the replay reports it).
    static func detect(_ rows: SensorCSVReader) -> AccelerometerUnitReport {
        var magnitudes: [Double] = []
        while magnitudes.count < detectionRows, let row = try? rows.next() {
            let v = row.values
            magnitudes.append((v[0] * v[0] + v[1] * v[1] + v[2] * v[2]).squareRoot())
        }
        magnitudes.sort()
        let median = magnitudes.isEmpty ? 1 : magnitudes[magnitudes.count / 2]
        return AccelerometerUnitReport(
            unit: unit(forMedianMagnitude: median), source: .detected(medianMagnitude: median))
    }
}
