import CSleepDSP
import XCTest

/// `sa_fft` (FFTW, single precision) against a DFT computed in double.
final class FFTTests: XCTestCase {
    /// SNR (dB) of `spectrum` (interleaved re, im) against the double-precision DFT of `samples`.
    static func snrAgainstReference(samples: [Float], spectrum: [Float]) -> Double {
        let n = samples.count
        var signal = 0.0
        var error = 0.0
        for k in 0...(n / 2) {
            var re = 0.0
            var im = 0.0
            for (index, value) in samples.enumerated() {
                let angle = -2 * Double.pi * Double(k * index % n) / Double(n)
                re += Double(value) * cos(angle)
                im += Double(value) * sin(angle)
            }
            signal += re * re + im * im
            let dr = Double(spectrum[2 * k]) - re
            let di = Double(spectrum[2 * k + 1]) - im
            error += dr * dr + di * di
        }
        return 10 * log10(signal / max(error, 1e-300))
    }

    func test_fft_matches_doubleDFT_above90dB_for_power_of_two_and_other_sizes() throws {
        for size in [512, 1000, 441, 64] {
            var fft: OpaquePointer?
            XCTAssertEqual(sa_fft_init(size, &fft), SA_OK)
            defer { sa_fft_destroy(&fft) }
            let samples = TestSignals.noise(count: size, seed: UInt64(size))
            var spectrum = [Float](repeating: 0, count: 2 * (size / 2 + 1))
            XCTAssertEqual(sa_fft_forward(fft, samples, &spectrum), SA_OK)
            let snr = Self.snrAgainstReference(samples: samples, spectrum: spectrum)
            XCTAssertGreaterThanOrEqual(snr, 90, "size \(size)")
        }
    }

    func test_fft_inverse_restores_signal_times_size() throws {
        var fft: OpaquePointer?
        XCTAssertEqual(sa_fft_init(256, &fft), SA_OK)
        defer { sa_fft_destroy(&fft) }
        let samples = TestSignals.noise(count: 256, seed: 7)
        let real = sa_fft_real_buffer(fft)!
        for index in 0..<256 { real[index] = samples[index] }
        sa_fft_execute_forward(fft)
        sa_fft_execute_inverse(fft)
        for index in 0..<256 { XCTAssertEqual(real[index] / 256, samples[index], accuracy: 1e-5) }
    }

    func test_fft_init_rejects_sizes_below_two() {
        var fft: OpaquePointer?
        XCTAssertEqual(sa_fft_init(1, &fft), SA_ERR_INVALID_ARGUMENT)
        XCTAssertNil(fft)
    }

    func test_fft_planning_is_safe_from_parallel_threads() {
        DispatchQueue.concurrentPerform(iterations: 16) { index in
            var fft: OpaquePointer?
            let size = 128 + 2 * index
            XCTAssertEqual(sa_fft_init(size, &fft), SA_OK)
            let samples = TestSignals.noise(count: size, seed: UInt64(index + 1))
            var spectrum = [Float](repeating: 0, count: 2 * (size / 2 + 1))
            XCTAssertEqual(sa_fft_forward(fft, samples, &spectrum), SA_OK)
            XCTAssertEqual(Double(spectrum[0]), samples.reduce(0.0) { $0 + Double($1) }, accuracy: 1e-3)
            sa_fft_destroy(&fft)
        }
    }
}
