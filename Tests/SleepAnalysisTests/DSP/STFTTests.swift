import CSleepDSP
import XCTest

/// `sa_stft`: any FFT size and hop (including hops longer than the window), streaming.
final class STFTTests: XCTestCase {
    /// Feeds `samples` in `chunk`-sized pieces; returns the power spectrum of every frame.
    static func frames(size: Int, hop: Int, samples: [Float], chunk: Int) -> [[Float]] {
        var stft: OpaquePointer?
        XCTAssertEqual(sa_stft_init(size, hop, &stft), SA_OK)
        defer { sa_stft_destroy(&stft) }
        var spectra: [[Float]] = []
        samples.withUnsafeBufferPointer { buffer in
            var position = 0
            while position < buffer.count {
                let count = min(chunk, buffer.count - position)
                var done = 0
                while done < count {
                    var ready: Int32 = 0
                    done += sa_stft_feed(stft, buffer.baseAddress! + position + done, count - done, &ready)
                    if ready != 0 {
                        let power = sa_stft_power(stft)!
                        spectra.append((0...(size / 2)).map { power[$0] })
                    }
                }
                position += count
            }
        }
        return spectra
    }

    func test_stft_counts_frames_and_finds_tone_for_any_size_and_hop() {
        let sampleRate = 8_000.0
        let tone = TestSignals.sine(frequency: 1_000, amplitude: 0.5, sampleRate: sampleRate, count: 4_000)
        for (size, hop) in [(300, 400), (1_000, 7), (512, 160), (257, 257)] {
            let spectra = Self.frames(size: size, hop: hop, samples: tone, chunk: 333)
            XCTAssertEqual(spectra.count, 4_000 / hop, "size \(size) hop \(hop)")
            let last = spectra[spectra.count - 1]
            let peak = last.indices.max { last[$0] < last[$1] }!
            let expected = 1_000 * Double(size) / sampleRate
            XCTAssertEqual(Double(peak), expected, accuracy: 1, "size \(size) hop \(hop)")
            XCTAssertEqual(Self.frames(size: size, hop: hop, samples: tone, chunk: 1).last!, last)
        }
    }

    func test_stft_rejects_zero_hop_and_tiny_size() {
        var stft: OpaquePointer?
        XCTAssertEqual(sa_stft_init(512, 0, &stft), SA_ERR_INVALID_ARGUMENT)
        XCTAssertEqual(sa_stft_init(1, 10, &stft), SA_ERR_INVALID_ARGUMENT)
        XCTAssertNil(stft)
    }
}
