import Foundation
import XCTest

@testable import SleepAnalysis

/// Pooling a stream's overlapping windows with their frame numbers (each frame's own work done once and kept for
/// the next window) gives exactly the features of pooling every window afresh.
final class EventFeaturePoolingTests: XCTestCase {
    /// A stream of log-mel frames and levels: a slow swell and a tone moving up the bands over noise.
    private func stream(frames: Int, bands: Int) -> (logMel: [Float], dbfs: [Float]) {
        var state: UInt64 = 99
        func noise() -> Float {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Float(Double(state >> 11) / Double(1 << 53))
        }
        var logMel = [Float](repeating: 0, count: frames * bands)
        var dbfs = [Float](repeating: 0, count: frames)
        for frame in 0..<frames {
            let swell = 4 * Float(sin(Double(frame) / 40))
            let toneBand = (frame / 7) % bands
            for band in 0..<bands {
                let tone: Float = band == toneBand ? 6 : 0
                // Some values under the log floor (-18), so the clamp is exercised too.
                logMel[frame * bands + band] = -16 + swell + tone + 3 * noise() - (band > 56 ? 6 : 0)
            }
            dbfs[frame] = -55 + 3 * swell + noise()
        }
        return (logMel, dbfs)
    }

    func test_streamPooling_matchesFreshPoolingOfEveryWindow_bitForBit() throws {
        let bands = 64
        let (logMel, dbfs) = stream(frames: 1_037, bands: bands)
        let schedule = EventWindowSchedule.standard
        let fresh = try EventFeaturePooling(melBandCount: bands, maximumFrames: schedule.windowFrames, logFloor: -18)
        let kept = try EventFeaturePooling(melBandCount: bands, maximumFrames: schedule.windowFrames, logFloor: -18)
        var windows: [(start: Int64, frames: Int)] = []
        var last: Int64?
        for count in 1...Int64(dbfs.count) {
            if let start = schedule.windowEnding(atFrameCount: count) {
                windows.append((start, schedule.windowFrames))
                last = start
            }
        }
        let final = try XCTUnwrap(schedule.finalWindow(totalFrames: Int64(dbfs.count), lastStart: last))
        windows.append(final)
        // A window again after the stream moved on: its frames' slots now hold later frames.
        windows.append((start: 100, frames: 100))
        var expected = [Float](repeating: 0, count: fresh.featureCount)
        var actual = expected
        var compared = 0
        logMel.withUnsafeBufferPointer { mel in
            dbfs.withUnsafeBufferPointer { db in
                for window in windows {
                    let offset = Int(window.start)
                    expected.withUnsafeMutableBufferPointer {
                        fresh.pool(
                            logMel: mel.baseAddress! + offset * bands, dbfs: db.baseAddress! + offset,
                            frames: window.frames, into: $0.baseAddress!)
                    }
                    actual.withUnsafeMutableBufferPointer {
                        kept.pool(
                            logMel: mel.baseAddress! + offset * bands, dbfs: db.baseAddress! + offset,
                            frames: window.frames, firstFrame: window.start, into: $0.baseAddress!)
                    }
                    XCTAssertEqual(actual.map(\.bitPattern), expected.map(\.bitPattern), "window at \(window.start)")
                    compared += 1
                }
            }
        }
        XCTAssertEqual(compared, 21)
        XCTAssertTrue(expected.contains { $0 != 0 })
    }
}
