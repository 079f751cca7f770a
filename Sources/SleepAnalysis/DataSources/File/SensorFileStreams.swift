import Foundation

/// The sensor CSV files of a replay, each read one row ahead, merged into time order.
///
/// `deliverRows(before:to:)` hands the sink every pending row earlier than a time, as runs of one kind in
/// time order (ties: accelerometer, then heart rate, then activity counts), at most `maximumBatch` rows per
/// delivery so memory stays bounded whatever the files hold. Not thread-safe: the replay thread owns it.
final class SensorFileStreams {
    /// The most rows delivered in one `SensorData` value.
    static let maximumBatch = 1_024

    private let accelerometer: AccelerometerCSVReader?
    private let heartRate: HeartRateCSVReader?
    private let activityCounts: ActivityCountCSVReader?
    private var nextAccelerometer: AccelerometerSample?
    private var nextHeartRate: HeartRateSample?
    private var nextActivityCount: ActivityCountSample?

    /// Opens the given files and reads the first row of each.
    ///
    /// - Throws: `CSVError` when a file is missing, unreadable, or its header or first row is bad.
    init(
        accelerometer: URL?, heartRate: URL?, activityCounts: URL?, startTime: Date,
        accelerometerUnit: AccelerationUnit?, localZone: TimeZone? = nil
    ) throws(CSVError) {
        self.accelerometer = try accelerometer.map { url throws(CSVError) in
            try AccelerometerCSVReader(
                url: url, startTime: startTime, unit: accelerometerUnit, localZone: localZone, oneNight: true)
        }
        self.heartRate = try heartRate.map { url throws(CSVError) in
            try HeartRateCSVReader(url: url, startTime: startTime, localZone: localZone, oneNight: true)
        }
        self.activityCounts = try activityCounts.map { url throws(CSVError) in
            try ActivityCountCSVReader(url: url, startTime: startTime, localZone: localZone, oneNight: true)
        }
        nextAccelerometer = try self.accelerometer?.next()
        nextHeartRate = try self.heartRate?.next()
        nextActivityCount = try self.activityCounts?.next()
    }

    /// Publishes how many bytes of each file were read and their digest (`FileDataSource.fingerprint`).
    func publishContent(to tally: ContentTally) {
        let readers: [(String, ContentDigest?)] = [
            ("accelerometer", accelerometer?.content), ("heartRate", heartRate?.content),
            ("activityCounts", activityCounts?.content),
        ]
        for case (let name, let content?) in readers {
            tally.publish(name, length: Int64(content.byteCount), digest: content.hex)
        }
    }

    /// The earliest pending row's time, or nil when every file is exhausted.
    var nextTimestamp: Date? {
        [nextAccelerometer?.timestamp, nextHeartRate?.timestamp, nextActivityCount?.timestamp].compactMap { $0 }.min()
    }

    /// Delivers every pending row earlier than `end`, in time order.
    ///
    /// - Throws: `CSVError` for the first malformed row met, after delivering every good row read before it.
    func deliverRows(before end: Date, to sink: any SensorDataSink) throws(CSVError) {
        while true {
            let accelerometerTime = nextAccelerometer?.timestamp ?? .distantFuture
            let heartRateTime = nextHeartRate?.timestamp ?? .distantFuture
            let activityTime = nextActivityCount?.timestamp ?? .distantFuture
            let earliest = min(accelerometerTime, heartRateTime, activityTime)
            guard earliest < end else { return }

            if accelerometerTime == earliest {
                // Up to (and including ties with) the next row of another kind.
                let limit = min(end, Self.after(min(heartRateTime, activityTime)))
                var batch: [AccelerometerSample] = []
                while let sample = nextAccelerometer, sample.timestamp < limit, batch.count < Self.maximumBatch {
                    batch.append(sample)
                    do {
                        nextAccelerometer = try accelerometer?.next()
                    } catch {
                        sink.deliver(.accelerometer(batch))
                        throw error
                    }
                }
                sink.deliver(.accelerometer(batch))
            } else if heartRateTime == earliest {
                let limit = min(end, Self.after(activityTime), accelerometerTime)
                var batch: [HeartRateSample] = []
                while let sample = nextHeartRate, sample.timestamp < limit, batch.count < Self.maximumBatch {
                    batch.append(sample)
                    do {
                        nextHeartRate = try heartRate?.next()
                    } catch {
                        sink.deliver(.heartRate(batch))
                        throw error
                    }
                }
                sink.deliver(.heartRate(batch))
            } else {
                let limit = min(end, accelerometerTime, heartRateTime)
                var batch: [ActivityCountSample] = []
                while let sample = nextActivityCount, sample.timestamp < limit, batch.count < Self.maximumBatch {
                    batch.append(sample)
                    do {
                        nextActivityCount = try activityCounts?.next()
                    } catch {
                        sink.deliver(.activityCounts(batch))
                        throw error
                    }
                }
                sink.deliver(.activityCounts(batch))
            }
        }
    }

    /// The smallest date after `date`, so `< after(t)` means `<= t`.
    private static func after(_ date: Date) -> Date {
        date == .distantFuture ? date : Date(timeIntervalSinceReferenceDate: date.timeIntervalSinceReferenceDate.nextUp)
    }
}
