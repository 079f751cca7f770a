import XCTest

@testable import SleepAnalysis

/// `Resampler` (libsoxr): stop band, pass band, timing, streaming, errors.
final class ResamplerTests: XCTestCase {
    /// Resamples `input` in uneven chunks and flushes.
    static func resample(
        _ input: [Float], from inputRate: Double, to outputRate: Double, channels: Int = 1
    )
        throws -> [Float]
    {
        let resampler = try Resampler(inputRate: inputRate, outputRate: outputRate, channelCount: channels)
        var output: [Float] = []
        var position = 0
        var chunk = 1_000 * channels
        while position < input.count {
            let end = min(input.count, position + chunk)
            output += try resampler.process(Array(input[position..<end]))
            position = end
            chunk = chunk == 1_000 * channels ? 7_777 * channels : 1_000 * channels
        }
        return output + (try resampler.flush())
    }

    func test_resampler_attenuates_stopBand_by_80dB_48k_to_16k() throws {
        let tone = TestSignals.sine(frequency: 10_000, amplitude: 0.5, sampleRate: 48_000, count: 48_000)
        let output = try Self.resample(tone, from: 48_000, to: 16_000)
        let attenuation = TestSignals.rmsDb(tone) - TestSignals.rmsDb(output[2_000..<14_000])
        XCTAssertGreaterThanOrEqual(attenuation, 80)
    }

    func test_resampler_attenuates_images_by_80dB_8k_to_16k() throws {
        let tone = TestSignals.sine(frequency: 3_000, amplitude: 0.5, sampleRate: 8_000, count: 8_000)
        let output = try Self.resample(tone, from: 8_000, to: 16_000)
        let middle = output[2_000..<14_000]
        let kept = TestSignals.toneAmplitudeDb(middle, frequency: 3_000, sampleRate: 16_000)
        let image = TestSignals.toneAmplitudeDb(middle, frequency: 5_000, sampleRate: 16_000)
        XCTAssertEqual(kept, 20 * log10(0.5), accuracy: 0.1)
        XCTAssertGreaterThanOrEqual(kept - image, 80)
    }

    func test_resampler_passBand_is_flat_at_any_ratio() throws {
        for inputRate in [44_100.0, 22_050, 48_000, 8_000] {
            for frequency in [100.0, 1_000, 3_000] + (inputRate > 16_000 ? [7_000] : []) {
                let count = Int(inputRate)
                let tone = TestSignals.sine(frequency: frequency, amplitude: 0.5, sampleRate: inputRate, count: count)
                let output = try Self.resample(tone, from: inputRate, to: 16_000)
                XCTAssertEqual(output.count, 16_000, "length at \(inputRate)")
                let level = TestSignals.toneAmplitudeDb(
                    output[2_000..<14_000], frequency: frequency, sampleRate: 16_000)
                XCTAssertEqual(level, 20 * log10(0.5), accuracy: 0.1, "\(frequency) Hz from \(inputRate) Hz")
            }
        }
    }

    func test_resampler_output_is_aligned_with_input_time() throws {
        var impulse = [Float](repeating: 0, count: 44_100)
        impulse[4_410] = 1  // t = 0.1 s
        let output = try Self.resample(impulse, from: 44_100, to: 16_000)
        let peak = output.indices.max { output[$0] < output[$1] }!
        XCTAssertEqual(peak, 1_600)
        XCTAssertEqual(output.count, 16_000)
    }

    func test_resampler_keeps_stereo_channels_apart() throws {
        let left = TestSignals.sine(frequency: 440, amplitude: 0.5, sampleRate: 48_000, count: 48_000)
        var interleaved = [Float](repeating: 0, count: 96_000)
        for index in 0..<48_000 { interleaved[2 * index] = left[index] }
        let output = try Self.resample(interleaved, from: 48_000, to: 16_000, channels: 2)
        XCTAssertEqual(output.count, 32_000)
        let outLeft = stride(from: 0, to: output.count, by: 2).map { output[$0] }
        let outRight = stride(from: 1, to: output.count, by: 2).map { output[$0] }
        XCTAssertEqual(
            TestSignals.toneAmplitudeDb(outLeft[2_000..<14_000], frequency: 440, sampleRate: 16_000), 20 * log10(0.5),
            accuracy: 0.1)
        XCTAssertLessThan(TestSignals.rmsDb(outRight), -100)
    }

    func test_resampler_passes_through_when_rates_are_equal() throws {
        let samples = TestSignals.noise(count: 1_234)
        let resampler = try Resampler(inputRate: 16_000, outputRate: 16_000, channelCount: 1)
        XCTAssertEqual(try resampler.process(samples), samples)
        XCTAssertEqual(try resampler.flush(), [])
    }

    func test_resampler_throws_for_zero_rate_bad_channels_and_partial_frames() throws {
        XCTAssertThrowsError(try Resampler(inputRate: 0, channelCount: 1)) { error in
            guard case SleepCycleSdkError.invalidConfiguration = error else { return XCTFail("\(error)") }
        }
        XCTAssertThrowsError(try Resampler(inputRate: .nan, channelCount: 1))
        XCTAssertThrowsError(try Resampler(inputRate: 44_100, channelCount: 0))
        let stereo = try Resampler(inputRate: 44_100, channelCount: 2)
        XCTAssertThrowsError(try stereo.process([0, 0, 0])) { error in
            guard case SleepCycleSdkError.invalidInput = error else { return XCTFail("\(error)") }
        }
    }

    /// A planar converter gives exactly the samples of an interleaved one, channel by channel, whatever the
    /// chunk sizes, from 44.1 kHz, 48 kHz and 16 kHz (passed through).
    func test_resampler_planar_givesTheInterleavedSamples_channelByChannel() throws {
        for rate in [44_100.0, 48_000, 16_000] {
            let frames = Int(rate * 1.3)
            let left = TestSignals.noise(count: frames)
            let right = TestSignals.sine(frequency: 3_000, amplitude: 0.4, sampleRate: rate, count: frames)
            var interleaved = [Float](repeating: 0, count: 2 * frames)
            for index in 0..<frames {
                interleaved[2 * index] = left[index]
                interleaved[2 * index + 1] = right[index]
            }
            let expected = try Self.resample(interleaved, from: rate, to: 16_000, channels: 2)
            let planar = try Resampler(inputRate: rate, outputRate: 16_000, channelCount: 2, planar: true)
            var channels: [[Float]] = [[], []]
            var position = 0
            var chunk = 1_000
            while position < frames {
                let end = min(frames, position + chunk)
                let block = try planar.process(planar: Array(left[position..<end]) + Array(right[position..<end]))
                for channel in 0..<2 { channels[channel] += block[channel] }
                position = end
                chunk = chunk == 1_000 ? 7_777 : 1_000
            }
            let tail = try planar.flushChannels()
            for channel in 0..<2 { channels[channel] += tail[channel] }
            XCTAssertEqual(channels[0], stride(from: 0, to: expected.count, by: 2).map { expected[$0] }, "\(rate) Hz")
            XCTAssertEqual(channels[1], stride(from: 1, to: expected.count, by: 2).map { expected[$0] }, "\(rate) Hz")
            XCTAssertEqual(channels[0].count, Int((Double(frames) * 16_000 / rate).rounded()), "\(rate) Hz")
        }
    }
}
