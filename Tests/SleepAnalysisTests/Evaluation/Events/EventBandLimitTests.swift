import Foundation
import TestSupport
import XCTest

@testable import SleepAnalysis
@testable import SleepAnalysisEvaluation

/// The band-limited training copies: on real recordings, each 4-kHz copy keeps the clip's length and its speech band
/// but loses what lies above 4 kHz, so the package's own bandwidth check flags it while the original passes; the
/// Opus copy keeps the length and the level, changes the waveform, and loses the upper band when the bit rate
/// pushes libopus down to narrowband.
final class EventBandLimitTests: XCTestCase {
    /// Real full-band recordings: the bundled night's first 8 s and, when the shared clips are there, a snore, a
    /// spoken word and a cough.
    private func recordings() throws -> [(name: String, samples: [Float])] {
        let night = try AudioFileReader(url: FixturePaths.fixtures.appendingPathComponent("night_short.ogg"))
        XCTAssertEqual(night.sampleRate, 16_000)
        var list = [(name: "night_short.ogg", samples: try XCTUnwrap(try night.readMono(maxFrames: 128_000)))]
        for path in [
            "snoring/esc50_snoring_4-180337-A-28.flac", "talking/speechcommands_house_019fa366_nohash_0.flac",
            "coughing/cough_etiquette_elbow_1-m-e-01.flac",
        ] {
            if let clip = try EventTestSignals.sharedClip(path) { list.append((path, clip)) }
        }
        return list
    }

    /// The upper-to-speech band ratio (dB) the package's bandwidth check computes for `samples`.
    private func upperToSpeechBandDb(_ samples: [Float]) throws -> Double {
        var monitor = AudioBandwidthMonitor()
        monitor.add(try FrontEnd().process(samples))
        return try XCTUnwrap(monitor.upperToSpeechBandDb)
    }

    /// Mean energy of `samples`.
    private func energy(_ samples: [Float]) -> Double {
        samples.reduce(0) { $0 + Double($1) * Double($1) } / Double(max(samples.count, 1))
    }

    func test_copies_loseTheUpperBand_keepLengthAndSpeechBand() throws {
        let limit = AudioBandwidthMonitor.bandLimitThresholdDb
        for (name, samples) in try recordings() {
            XCTAssertGreaterThanOrEqual(try upperToSpeechBandDb(samples), limit, "\(name) as recorded")
            for copyKind in [EventBandLimit.resampled8kHz, .lowPass4kHz] {
                let copy = try copyKind.apply(to: samples)
                XCTAssertEqual(copy.count, samples.count, "\(name) \(copyKind)")
                XCTAssertLessThan(try upperToSpeechBandDb(copy), limit, "\(name) \(copyKind)")
                // The recordings' energy lies mostly below 4 kHz: the copy keeps most of it.
                XCTAssertGreaterThan(energy(copy), 0.5 * energy(samples), "\(name) \(copyKind)")
            }
        }
    }

    func test_opus_keepsLengthAndLevel_changesTheWaveform_andNarrowsTheBandAt8kbps() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        for (name, samples) in try recordings() {
            let shipped = try EventBandLimit.opus.apply(to: samples)
            let roundTrip = OpusRoundTrip(
                bitsPerSecond: EventBandLimit.opusBitsPerSecond, temporaryDirectory: directory.url)
            let trip = try roundTrip.apply(to: samples)
            XCTAssertEqual(shipped, trip.samples, "\(name): the same encoder, the same copy")
            XCTAssertEqual(trip.samples.count, samples.count, name)
            XCTAssertEqual(10 * log10(energy(trip.samples) / energy(samples)), 0, accuracy: 3, name)
            let error = zip(trip.samples, samples).map { $0 - $1 }
            XCTAssertGreaterThan(energy(error), 0.01 * energy(samples), "\(name): a lossy copy, not the clip")
            // Wideband at 12 kbit/s: the upper band (4.5-7.5 kHz) stays; at 8 kbit/s libopus codes narrowband (up to
            // 4 kHz) and the decoder's upsampling leaves at least 20 dB less of it (not always below the
            // bandwidth check's threshold: the quiet night keeps −38 dB).
            let original = try upperToSpeechBandDb(samples)
            XCTAssertEqual(try upperToSpeechBandDb(trip.samples), original, accuracy: 3, name)
            let narrow = try OpusRoundTrip(bitsPerSecond: 8_000, temporaryDirectory: directory.url).apply(to: samples)
            XCTAssertLessThan(try upperToSpeechBandDb(narrow.samples), original - 20, name)
            // The file's own size: the target plus the Ogg pages and Opus headers (more, relatively, for short clips).
            XCTAssertGreaterThan(trip.fileBitsPerSecond, 8_000, name)
            XCTAssertLessThan(trip.fileBitsPerSecond, 30_000, name)
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory.url.path), [], "files removed")
    }

    func test_opus_rejectsEmptyAndNonFiniteInput_andLeavesNoFile() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let trip = OpusRoundTrip(bitsPerSecond: EventBandLimit.opusBitsPerSecond, temporaryDirectory: directory.url)
        for bad: [Float] in [[], [0.1, .nan, 0.2], [Float](repeating: .infinity, count: 16_000)] {
            XCTAssertThrowsError(try trip.apply(to: bad)) { error in
                guard case SleepCycleSdkError.invalidInput = error else { return XCTFail("\(error)") }
            }
        }
        XCTAssertThrowsError(try OpusRoundTrip(bitsPerSecond: 1_000, temporaryDirectory: directory.url).apply(to: [0]))
        { error in
            guard case SleepCycleSdkError.invalidConfiguration = error else { return XCTFail("\(error)") }
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory.url.path), [], "files removed")
    }

    func test_lowPass_passesSpeechBandTone_andStopsTonesAbove4kHz() {
        func tone(_ hertz: Double) -> [Float] {
            (0..<16_000).map { Float(sin(2 * .pi * hertz * Double($0) / 16_000)) }
        }
        func gainDb(_ hertz: Double) -> Double {
            let input = tone(hertz)
            let output = EventBandLimit.filtered(input, EventBandLimit.lowPassTaps)
            let middle = 1_000..<15_000
            return 10 * log10(energy(Array(output[middle])) / energy(Array(input[middle])))
        }
        XCTAssertEqual(gainDb(1_000), 0, accuracy: 0.1)
        XCTAssertEqual(gainDb(3_000), 0, accuracy: 0.1)
        XCTAssertLessThan(gainDb(4_200), -60)
        XCTAssertLessThan(gainDb(6_000), -60)
    }
}
