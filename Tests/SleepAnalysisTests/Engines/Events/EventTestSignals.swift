import Foundation
import TestSupport

@testable import SleepAnalysis
@testable import SleepAnalysisEvaluation

/// Deterministic bedroom signals for the event tests: room tone, fan noise, mixing and WAV writing.
enum EventTestSignals {
    static let sampleRate = 16_000

    /// A small deterministic generator (64-bit LCG) of Gaussian-ish noise.
    struct Noise {
        var state: UInt64

        mutating func uniform() -> Double {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Double(state >> 11) / Double(1 << 53)
        }

        /// Sum of four uniforms, centred: close enough to Gaussian for noise beds.
        mutating func gaussian() -> Float {
            Float((uniform() + uniform() + uniform() + uniform() - 2) * 1.732)
        }
    }

    /// Scales `samples` to an RMS level in dBFS (full-scale sine = 0 dBFS, so RMS = 10^(dB/20) / sqrt 2).
    static func scaled(_ samples: [Float], toDbfs level: Double) -> [Float] {
        let rms = (samples.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(max(samples.count, 1))).squareRoot()
        guard rms > 0 else { return samples }
        let gain = Float(pow(10, level / 20) / 2.0.squareRoot() / rms)
        return samples.map { $0 * gain }
    }

    /// Quiet room tone: low-passed (brownish) noise with a little 50 Hz hum, at `level` dBFS.
    static func roomTone(seconds: Double, level: Double = -60, seed: UInt64 = 1) -> [Float] {
        var noise = Noise(state: seed)
        var low: Float = 0
        let count = Int(seconds * Double(sampleRate))
        var out = [Float](repeating: 0, count: count)
        for index in 0..<count {
            low = 0.97 * low + 0.03 * noise.gaussian()
            let hum = 0.05 * Float(sin(2 * Double.pi * 50 * Double(index) / Double(sampleRate)))
            out[index] = low + 0.02 * noise.gaussian() + hum * 0.1
        }
        return scaled(out, toDbfs: level)
    }

    /// A quiet fan: band-passed noise with a 20 Hz blade modulation, at `level` dBFS.
    static func fanNoise(seconds: Double, level: Double = -50, seed: UInt64 = 2) -> [Float] {
        var noise = Noise(state: seed)
        var low: Float = 0
        var lower: Float = 0
        let count = Int(seconds * Double(sampleRate))
        var out = [Float](repeating: 0, count: count)
        for index in 0..<count {
            let white = noise.gaussian()
            low = 0.7 * low + 0.3 * white
            lower = 0.98 * lower + 0.02 * white
            let blade = 1 + 0.2 * Float(sin(2 * Double.pi * 20 * Double(index) / Double(sampleRate)))
            out[index] = (low - lower) * blade
        }
        return scaled(out, toDbfs: level)
    }

    /// `background` with `event` added starting at `seconds`.
    static func mix(_ event: [Float], into background: [Float], at seconds: Double) -> [Float] {
        var out = background
        let offset = Int(seconds * Double(sampleRate))
        for index in event.indices where offset + index < out.count { out[offset + index] += event[index] }
        return out
    }

    /// The shared data set: `FixturePaths.sharedData`, else `$SLEEPANALYSIS_SHARED_DATA` (for worktrees that do
    /// not sit beside `shared/`).
    static var sharedData: URL? {
        if let root = FixturePaths.sharedData { return root }
        guard let path = ProcessInfo.processInfo.environment["SLEEPANALYSIS_SHARED_DATA"],
            FileManager.default.fileExists(atPath: path)
        else { return nil }
        return URL(fileURLWithPath: path)
    }

    /// A clip from the shared data set, or nil when the data is absent.
    static func sharedClip(_ relativePath: String) throws -> [Float]? {
        guard let root = sharedData else { return nil }
        let url = root.appendingPathComponent("audio").appendingPathComponent(relativePath)
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        return try EventClipAudio.load(url)
    }

    /// Writes a 16-bit PCM mono WAV file at 16 kHz.
    static func writeWav(_ samples: [Float], to url: URL) throws {
        var data = Data()
        func append<T: FixedWidthInteger>(_ value: T) {
            withUnsafeBytes(of: value.littleEndian) { data.append(contentsOf: $0) }
        }
        let bytes = UInt32(samples.count * 2)
        data.append(contentsOf: Array("RIFF".utf8)); append(UInt32(36) + bytes)
        data.append(contentsOf: Array("WAVEfmt ".utf8)); append(UInt32(16)); append(UInt16(1)); append(UInt16(1))
        append(UInt32(sampleRate)); append(UInt32(sampleRate * 2)); append(UInt16(2)); append(UInt16(16))
        data.append(contentsOf: Array("data".utf8)); append(bytes)
        for sample in samples { append(Int16(max(-1, min(1, sample)) * 32_767)) }
        try data.write(to: url)
    }

    /// Runs the detector over `samples` in one-second batches and returns every output (the last from finish).
    static func run(_ detector: EventDetector, _ samples: [Float]) throws -> [EventDetectorOutput] {
        let frontEnd = try FrontEnd()
        let origin = Date(timeIntervalSince1970: 1_000_000)
        var outputs: [EventDetectorOutput] = []
        var offset = 0
        while offset < samples.count {
            let end = min(samples.count, offset + AudioBatch.standardLength)
            let block = frontEnd.process(Array(samples[offset..<end]))
            outputs.append(
                detector.process(
                    features: block,
                    batchStart: origin.addingTimeInterval(Double(offset) / Double(sampleRate)),
                    firstSampleIndex: Int64(offset)))
            offset = end
        }
        outputs.append(detector.finish())
        return outputs
    }

    /// The time origin `run` uses.
    static let origin = Date(timeIntervalSince1970: 1_000_000)
}
