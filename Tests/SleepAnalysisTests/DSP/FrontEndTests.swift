import XCTest

@testable import SleepAnalysis

/// `FrontEnd`: frame count and chunking independence, and its log-mel and levels against an independent
/// double-precision reference (direct DFT, Slaney mel bank built here).
final class FrontEndTests: XCTestCase {
    func test_frontEnd_gives_100_frames_per_second_whatever_the_chunking() throws {
        let samples = TestSignals.noise(count: 16_000, amplitude: 0.1)
        let whole = try FrontEnd().process(samples)
        XCTAssertEqual(whole.frameCount, 100)
        XCTAssertEqual(whole.logMel.count, 6_400)
        for chunk in [1, 37, 160, 1_000, 4_096] {
            let frontEnd = try FrontEnd()
            var logMel: [Float] = []
            var dbSpl: [Float] = []
            var dbfs: [Float] = []
            var nextFrame: Int64 = 0
            for start in stride(from: 0, to: samples.count, by: chunk) {
                let block = frontEnd.process(Array(samples[start..<min(samples.count, start + chunk)]))
                XCTAssertEqual(block.firstFrameIndex, nextFrame)
                nextFrame += Int64(block.frameCount)
                logMel += block.logMel
                dbSpl += block.dbSpl
                dbfs += block.dbfs
            }
            XCTAssertEqual(nextFrame, 100, "chunk \(chunk)")
            XCTAssertEqual(logMel, whole.logMel, "chunk \(chunk)")
            XCTAssertEqual(dbSpl, whole.dbSpl, "chunk \(chunk)")
            XCTAssertEqual(dbfs, whole.dbfs, "chunk \(chunk)")
        }
    }

    func test_frontEnd_matches_doublePrecision_reference() throws {
        let signal = zip(
            TestSignals.noise(count: 4_000, amplitude: 0.05),
            TestSignals.sine(frequency: 440, amplitude: 0.2, sampleRate: 16_000, count: 4_000)
        ).map { $0 + $1 }
        let block = try FrontEnd().process(signal)
        let reference = ReferenceFrontEnd()
        for frame in [0, 3, 10, 24] {
            let end = (frame + 1) * 160
            let window = (0..<512).map { index -> Double in
                let sample = end - 512 + index
                return sample >= 0 ? Double(signal[sample]) : 0
            }
            let expected = reference.logMel(window)
            for band in 0..<64 {
                XCTAssertEqual(
                    Double(block.logMel[frame * 64 + band]), expected[band], accuracy: 1e-3,
                    "frame \(frame) band \(band)")
            }
            let meanSquare = reference.meanSquare(window, validSamples: min(end, 512))
            XCTAssertEqual(Double(block.dbfs[frame]), 10 * log10(2 * meanSquare), accuracy: 1e-3, "frame \(frame)")
        }
    }

    func test_frontEnd_puts_a_tone_in_the_band_around_its_frequency() throws {
        let tone = TestSignals.sine(frequency: 1_000, amplitude: 0.3, sampleRate: 16_000, count: 16_000)
        let block = try FrontEnd().process(tone)
        let frame = Array(block.logMel[(50 * 64)..<(51 * 64)])
        let loudest = frame.indices.max { frame[$0] < frame[$1] }!
        let edges = ReferenceFrontEnd().edgesHz
        XCTAssertLessThan(edges[loudest], 1_000)
        XCTAssertGreaterThan(edges[loudest + 2], 1_000)
    }

    func test_frontEnd_throws_for_zero_rate_and_bad_bands() {
        var zeroRate = FrontEndConfiguration.standard
        zeroRate.sampleRate = 0
        XCTAssertThrowsError(try FrontEnd(configuration: zeroRate)) { error in
            guard case SleepCycleSdkError.invalidConfiguration = error else { return XCTFail("\(error)") }
        }
        var badBands = FrontEndConfiguration.standard
        badBands.melHighHz = 9_000
        XCTAssertThrowsError(try FrontEnd(configuration: badBands))
        var noHop = FrontEndConfiguration.standard
        noHop.hopSize = 0
        XCTAssertThrowsError(try FrontEnd(configuration: noHop))
    }
}

/// The standard front end's definition, written independently in double precision.
private struct ReferenceFrontEnd {
    let size = 512
    let edgesHz: [Double]

    init() {
        func mel(_ f: Double) -> Double { f < 1_000 ? 3 * f / 200 : 15 + 27 * log(f / 1_000) / log(6.4) }
        func hz(_ m: Double) -> Double { m < 15 ? 200 * m / 3 : 1_000 * exp((m - 15) * log(6.4) / 27) }
        let low = mel(50)
        let high = mel(8_000)
        edgesHz = (0..<66).map { hz(low + (high - low) * Double($0) / 65) }
    }

    func hann(_ n: Int) -> Double { 0.5 - 0.5 * cos(2 * Double.pi * Double(n) / Double(size)) }

    func power(_ frame: [Double]) -> [Double] {
        (0...(size / 2)).map { k in
            var re = 0.0
            var im = 0.0
            for n in 0..<size {
                let angle = -2 * Double.pi * Double(k * n % size) / Double(size)
                re += frame[n] * hann(n) * cos(angle)
                im += frame[n] * hann(n) * sin(angle)
            }
            return re * re + im * im
        }
    }

    func logMel(_ frame: [Double]) -> [Double] {
        let spectrum = power(frame)
        return (0..<64).map { band in
            let (lo, centre, hi) = (edgesHz[band], edgesHz[band + 1], edgesHz[band + 2])
            var energy = 0.0
            for (k, value) in spectrum.enumerated() {
                let f = Double(k) * 16_000 / Double(size)
                let weight = max(0, min((f - lo) / (centre - lo), (hi - f) / (hi - centre))) * 2 / (hi - lo)
                energy += weight * value
            }
            return log(energy + 1e-10)
        }
    }

    func meanSquare(_ frame: [Double], validSamples: Int) -> Double {
        let energy = (0..<size).reduce(0.0) { $0 + pow(frame[$1] * hann($1), 2) }
        let windowEnergy = ((size - validSamples)..<size).reduce(0.0) { $0 + hann($1) * hann($1) }
        return energy / windowEnergy
    }
}
