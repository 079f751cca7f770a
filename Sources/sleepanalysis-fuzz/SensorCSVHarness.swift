import Foundation
import SleepAnalysis

/// Sensor CSV files: the bytes become a file that the accelerometer, heart-rate and activity-count readers each
/// read to the end (covering `SensorCSVReader`, `CSVLineReader`, `CSVTimestampParser` and `CSVNumberParser`), and
/// the accelerometer reader once more as a replay reads one night of local times (Europe/Stockholm: clock changes,
/// repeated and skipped hours; the one-night span and gap limits). Their errors are typed (`CSVError`), so any
/// rejection is allowed; the point is that none traps or hangs.
enum SensorCSVHarness {
    /// What relative timestamps count from: a fixed instant, so a run does not depend on the clock.
    private static let startTime = Date(timeIntervalSince1970: 1_796_158_800)  // 2026-12-01T21:00Z, near the seeds

    /// The zone of timestamps written without one, for the one-night read.
    private static let localZone = TimeZone(identifier: "Europe/Stockholm")

    /// The harness.
    static let harness = FuzzHarness(
        name: "sensor-csv", summary: "accelerometer, heart-rate and activity-count CSV readers: read every row"
    ) { bytes in
        let url = ScratchDirectory.write(bytes, named: "input.csv")
        var accepted = false
        do throws(CSVError) {
            let reader = try AccelerometerCSVReader(url: url, startTime: startTime)
            while try reader.next() != nil {}
            accepted = true
        } catch {
            _ = error.description
        }
        do throws(CSVError) {
            let reader = try AccelerometerCSVReader(
                url: url, startTime: startTime, localZone: localZone, oneNight: true)
            while try reader.next() != nil {}
            accepted = true
        } catch {
            _ = error.description
        }
        do throws(CSVError) {
            let reader = try HeartRateCSVReader(url: url, startTime: startTime)
            while try reader.next() != nil {}
            accepted = true
        } catch {
            _ = error.description
        }
        do throws(CSVError) {
            let reader = try ActivityCountCSVReader(url: url, startTime: startTime)
            while try reader.next() != nil {}
            accepted = true
        } catch {
            _ = error.description
        }
        return accepted
    }
}
