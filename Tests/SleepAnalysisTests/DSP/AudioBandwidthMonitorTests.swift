import Foundation
import TestSupport
import XCTest

@testable import SleepAnalysis

/// The band-limit check on real recordings: full-band bedroom and event recordings pass, the same recordings
/// squeezed through 8 kHz are flagged.
final class AudioBandwidthMonitorTests: XCTestCase {
    /// The upper-to-speech band ratio (dB) of a file, optionally after a round trip through `throughRate` Hz, and
    /// the events detector's choice of model over it (`BandLimitedModelChoice`: nil when undecided, i.e. under 5 s
    /// of sound).
    private func judge(_ url: URL, throughRate: Double? = nil) throws -> (ratio: Double?, bandLimitedModel: Bool?) {
        try judge([url], throughRate: throughRate)
    }

    /// As `judge(_:throughRate:)`, over the files played one after the other as one stream.
    private func judge(_ urls: [URL], throughRate: Double? = nil) throws -> (ratio: Double?, bandLimitedModel: Bool?) {
        let down = try throughRate.map { try Resampler(inputRate: 16_000, outputRate: $0, channelCount: 1) }
        let up = try throughRate.map { try Resampler(inputRate: $0, outputRate: 16_000, channelCount: 1) }
        let frontEnd = try FrontEnd()
        var monitor = AudioBandwidthMonitor()
        var choice = BandLimitedModelChoice()
        func feed(_ samples: [Float]) throws {
            var signal = samples
            if let down, let up { signal = try up.process(down.process(signal)) }
            // As a 16-bit file would hold it: quantisation noise fills every band.
            signal = signal.map { ($0 * 32_767).rounded() / 32_767 }
            let block = frontEnd.process(signal)
            monitor.add(block)
            _ = choice.add(block)
        }
        for url in urls {
            let reader = try AudioFileReader(url: url)
            let toAnalysis = try Resampler(inputRate: reader.sampleRate, outputRate: 16_000, channelCount: 1)
            while let block = try reader.readMono(maxFrames: 16_000) { try feed(try toAnalysis.process(block)) }
            try feed(try toAnalysis.flush())
        }
        return (monitor.upperToSpeechBandDb, choice.isBandLimited)
    }

    private func ratio(_ url: URL, throughRate: Double? = nil) throws -> Double? {
        try judge(url, throughRate: throughRate).ratio
    }

    /// The bundled night and the first recordings (full-band, and made at 8 kHz) of a few classes of the shared clips, each with whether its
    /// manifest says it was made at 8 kHz (and upsampled).
    private var recordings: [(url: URL, madeAt8kHz: Bool)] {
        var list = [(url: FixturePaths.fixtures.appendingPathComponent("night_short.ogg"), madeAt8kHz: false)]
        guard let data = FixturePaths.sharedData,
            let manifest = try? String(
                contentsOf: data.appendingPathComponent("audio/MANIFEST.tsv"), encoding: .utf8)
        else { return list }
        var perClass: [String: Int] = [:]
        for line in manifest.split(separator: "\n").dropFirst() {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard fields.count > 7, ["snoring", "breathing", "coughing", "talking", "movement"].contains(fields[0])
            else { continue }
            let madeAt8kHz = fields[7].contains("originally 8 kHz")
            let group = fields[0] + (madeAt8kHz ? " at 8 kHz" : "")
            guard perClass[group, default: 0] < 6 else { continue }
            perClass[group, default: 0] += 1
            list.append((data.appendingPathComponent("audio/\(fields[1])"), madeAt8kHz))
        }
        return list
    }

    /// Full-band recordings must pass and recordings made at 8 kHz must be flagged; copies of the full-band ones
    /// squeezed through 8 kHz must be flagged too, except quiet ones, where 16-bit quantisation noise fills the
    /// upper band (the check then stays silent: documented).
    func test_fullBand_recordings_pass_and_8kHz_ones_are_flagged() throws {
        var judged = 0
        var squeezedFlagged = 0
        var madeNarrow = 0
        for (url, madeAt8kHz) in recordings {
            guard let full = try ratio(url) else { continue }  // digital silence is not judged
            if madeAt8kHz {
                madeNarrow += 1
                XCTAssertLessThan(full, AudioBandwidthMonitor.bandLimitThresholdDb, "\(url.lastPathComponent)")
                continue
            }
            judged += 1
            XCTAssertGreaterThanOrEqual(full, AudioBandwidthMonitor.bandLimitThresholdDb, "\(url.lastPathComponent)")
            let narrow = try XCTUnwrap(try ratio(url, throughRate: 8_000))
            if narrow < AudioBandwidthMonitor.bandLimitThresholdDb { squeezedFlagged += 1 }
        }
        let night = FixturePaths.fixtures.appendingPathComponent("night_short.ogg")
        XCTAssertLessThan(
            try XCTUnwrap(try ratio(night, throughRate: 8_000)), AudioBandwidthMonitor.bandLimitThresholdDb)
        print(
            "bandwidth check: \(judged) full-band recordings passed, \(squeezedFlagged) of their 8-kHz copies and "
                + "\(madeNarrow) recordings made at 8 kHz flagged")
        XCTAssertGreaterThan(judged, 0)
        XCTAssertGreaterThanOrEqual(Double(squeezedFlagged), 0.9 * Double(judged))
    }

    /// The events detector's choice over the first 5 s of sound agrees with the whole-recording check: full-band
    /// recordings keep the full-band model, recordings made at 8 kHz and full-band ones squeezed through 8 kHz get the
    /// band-limited one (quiet recordings whose 16-bit noise fills the upper band excepted, as above).
    func test_modelChoice_keepsFullBandRecordings_andSwitchesOn8kHzOnes() throws {
        var kept = 0
        var switched = 0
        var squeezed = 0
        for (url, madeAt8kHz) in recordings {
            let full = try judge(url)
            guard let ratio = full.ratio, let choice = full.bandLimitedModel else { continue }  // under 5 s of sound
            XCTAssertEqual(choice, madeAt8kHz, "\(url.lastPathComponent): \(ratio) dB")
            if madeAt8kHz { continue }
            if !choice { kept += 1 }
            if try judge(url, throughRate: 8_000).bandLimitedModel == true { squeezed += 1 }
        }
        // The recordings made at 8 kHz are spoken digits under a second long, too short alone: played one after
        // the other, they switch.
        let madeNarrow = recordings.filter(\.madeAt8kHz).map(\.url)
        if !madeNarrow.isEmpty {
            XCTAssertEqual(try judge(madeNarrow).bandLimitedModel, true)
            switched = madeNarrow.count
        }
        let night = FixturePaths.fixtures.appendingPathComponent("night_short.ogg")
        XCTAssertEqual(try judge(night).bandLimitedModel, false)
        XCTAssertEqual(try judge(night, throughRate: 8_000).bandLimitedModel, true)
        print(
            "model choice: \(kept) full-band recordings kept the full-band model, \(squeezed) of their 8-kHz copies "
                + "and \(switched) recordings made at 8 kHz, played as one stream, switched")
        XCTAssertGreaterThan(kept, 0)
        XCTAssertGreaterThanOrEqual(Double(squeezed), 0.9 * Double(kept))
    }
}
