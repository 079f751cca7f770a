import CSoxr
import Foundation

/// Streaming sample-rate conversion through libsoxr (high quality: linear phase, pass band to 91 % of the lower
/// Nyquist frequency, stop band attenuation above 120 dB), interleaved float in and out, any rational or
/// irrational ratio.
///
/// Timing: soxr removes its filter's group delay itself, so output sample `n` is the signal at input time
/// `n / outputRate` (an impulse at input sample `k` peaks at output sample `k · outputRate / inputRate`). The
/// filter holds back its last few hundred output samples until `flush()`; after `flush()` the total output is
/// `round(inputFrames · outputRate / inputRate)` frames. Equal rates pass samples through unchanged.
/// A planar converter (`planar: true`) takes each block as one channel after the other and gives one array per
/// channel (`process(planar:)`, `flushChannels()`): the same samples as interleaved, without interleaving them.
/// Not thread-safe: use one instance from one task.
package final class Resampler {
    /// Input frames per second.
    let inputRate: Double
    /// Output frames per second.
    let outputRate: Double
    /// Channels per frame.
    let channelCount: Int
    /// Whether blocks come and go one channel after the other (`process(planar:)`) instead of interleaved.
    let isPlanar: Bool

    private var handle: soxr_t?
    private var flushed = false
    /// Where soxr writes, kept from call to call (grown when a longer block comes).
    private var scratch: [Float] = []

    /// Creates a streaming converter.
    ///
    /// - Parameters:
    ///   - inputRate: the input's frames per second (1 Hz ... 1 MHz).
    ///   - outputRate: the output's frames per second; the analysis rate by default.
    ///   - channelCount: channels per frame (1 ... 8).
    ///   - planar: whether blocks come and go one channel after the other (`process(planar:)`).
    /// - Throws: `SleepCycleSdkError.invalidConfiguration` for a zero, negative or non-finite rate or a bad channel
    ///   count; `.dataSourceFailure` when `soxr_create` fails.
    package init(inputRate: Double, outputRate: Double = 16_000, channelCount: Int, planar: Bool = false) throws {
        guard inputRate.isFinite, outputRate.isFinite, (1...1e6).contains(inputRate), (1...1e6).contains(outputRate)
        else {
            throw SleepCycleSdkError.invalidConfiguration(
                "resampler: rates must be between 1 Hz and 1 MHz (got \(inputRate) → \(outputRate))")
        }
        guard (1...8).contains(channelCount) else {
            throw SleepCycleSdkError.invalidConfiguration("resampler: \(channelCount) channels; 1 to 8 expected")
        }
        self.inputRate = inputRate
        self.outputRate = outputRate
        self.channelCount = channelCount
        isPlanar = planar
        if inputRate == outputRate { return }
        let layout = planar ? SOXR_FLOAT32_S : SOXR_FLOAT32_I
        var io = soxr_io_spec(layout, layout)
        var quality = soxr_quality_spec(UInt(SOXR_HQ), 0)
        var failure: soxr_error_t?
        let created = soxr_create(inputRate, outputRate, UInt32(channelCount), &failure, &io, &quality, nil)
        if let failure {
            throw SleepCycleSdkError.dataSourceFailure("resampler: soxr_create failed (\(String(cString: failure)))")
        }
        handle = created
    }

    deinit {
        if let handle { soxr_delete(handle) }
    }

    /// Converts the next block of the stream.
    ///
    /// - Parameter interleaved: frames at `inputRate`, channels interleaved.
    /// - Returns: the frames ready at `outputRate`, interleaved (the converter keeps some back until `flush()`).
    /// - Throws: `SleepCycleSdkError.invalidInput` when the sample count is not a multiple of the channel count or
    ///   the stream was already flushed; `.dataSourceFailure` when `soxr_process` fails.
    package func process(_ interleaved: [Float]) throws -> [Float] {
        guard interleaved.count % channelCount == 0 else {
            throw SleepCycleSdkError.invalidInput(
                "resampler: \(interleaved.count) samples is not a whole number of \(channelCount)-channel frames")
        }
        guard !flushed else { throw SleepCycleSdkError.invalidInput("resampler: the stream was already flushed") }
        precondition(!isPlanar, "a planar resampler takes process(planar:)")
        guard let handle else { return interleaved }
        let inputFrames = interleaved.count / channelCount
        if inputFrames == 0 { return [] }
        let capacity = Int((Double(inputFrames) * outputRate / inputRate).rounded(.up)) + 64
        var output: [Float] = []
        output.reserveCapacity(capacity * channelCount)
        if scratch.count < capacity * channelCount { scratch = [Float](repeating: 0, count: capacity * channelCount) }
        var consumed = 0
        try interleaved.withUnsafeBufferPointer { input in
            try scratch.withUnsafeMutableBufferPointer { out in
                while consumed < inputFrames {
                    var used = 0
                    var made = 0
                    let failure = soxr_process(
                        handle, input.baseAddress! + consumed * channelCount, inputFrames - consumed, &used,
                        out.baseAddress, capacity, &made)
                    if let failure { throw Self.failure("soxr_process", failure) }
                    consumed += used
                    output.append(contentsOf: out[0..<(made * channelCount)])
                    if used == 0 && made == 0 { break }
                }
            }
        }
        return output
    }

    /// Ends the stream and returns the frames the converter still held.
    ///
    /// - Returns: the remaining output frames, interleaved (empty for equal rates or a second call).
    /// - Throws: `SleepCycleSdkError.dataSourceFailure` when `soxr_process` fails.
    package func flush() throws -> [Float] {
        guard let handle, !flushed else { return [] }
        flushed = true
        let capacity = 4096
        var output: [Float] = []
        var chunk = [Float](repeating: 0, count: capacity * channelCount)
        try chunk.withUnsafeMutableBufferPointer { out in
            while true {
                var made = 0
                let failure = soxr_process(handle, nil, 0, nil, out.baseAddress, capacity, &made)
                if let failure { throw Self.failure("soxr_process (flush)", failure) }
                if made == 0 { break }
                output.append(contentsOf: out[0..<(made * channelCount)])
            }
        }
        return output
    }

    /// Converts the next block of the stream, given one channel after the other.
    ///
    /// - Parameter planar: the same number of frames of each channel at `inputRate`, channel 0's first.
    /// - Returns: the frames ready at `outputRate`, one array per channel (the converter keeps some back until
    ///   `flushChannels()`).
    /// - Throws: `SleepCycleSdkError.invalidInput` when the sample count is not a multiple of the channel count or
    ///   the stream was already flushed; `.dataSourceFailure` when `soxr_process` fails.
    package func process(planar: [Float]) throws -> [[Float]] {
        guard planar.count % channelCount == 0 else {
            throw SleepCycleSdkError.invalidInput(
                "resampler: \(planar.count) samples is not a whole number of \(channelCount)-channel frames")
        }
        guard !flushed else { throw SleepCycleSdkError.invalidInput("resampler: the stream was already flushed") }
        precondition(isPlanar, "an interleaved resampler takes process(_:)")
        let inputFrames = planar.count / channelCount
        guard let handle else {
            return (0..<channelCount).map { Array(planar[($0 * inputFrames)..<(($0 + 1) * inputFrames)]) }
        }
        let capacity = Int((Double(inputFrames) * outputRate / inputRate).rounded(.up)) + 64
        return try planar.withUnsafeBufferPointer { input in
            try convertPlanar(handle, input: input.baseAddress, inputFrames: inputFrames, capacity: capacity)
        }
    }

    /// Ends a planar stream and returns the frames the converter still held, one array per channel.
    ///
    /// - Returns: the remaining output frames of each channel (empty for equal rates or a second call).
    /// - Throws: `SleepCycleSdkError.dataSourceFailure` when `soxr_process` fails.
    package func flushChannels() throws -> [[Float]] {
        precondition(isPlanar, "an interleaved resampler takes flush()")
        guard let handle, !flushed else { return Array(repeating: [], count: channelCount) }
        flushed = true
        return try convertPlanar(handle, input: nil, inputFrames: 0, capacity: 4096)
    }

    /// Runs soxr over planar input (nil: flush) until it is consumed (or, flushing, nothing more comes).
    private func convertPlanar(
        _ handle: soxr_t, input: UnsafePointer<Float>?, inputFrames: Int, capacity: Int
    ) throws -> [[Float]] {
        var outputs = [[Float]](repeating: [], count: channelCount)
        for channel in 0..<channelCount { outputs[channel].reserveCapacity(capacity) }
        if scratch.count < capacity * channelCount { scratch = [Float](repeating: 0, count: capacity * channelCount) }
        let channels = channelCount
        var consumed = 0
        try scratch.withUnsafeMutableBufferPointer { out in
            while true {
                var inputs: [UnsafePointer<Float>?] = (0..<channels).map { channel in
                    input.map { $0 + channel * inputFrames + consumed }
                }
                var targets: [UnsafeMutablePointer<Float>?] = (0..<channels).map { out.baseAddress! + $0 * capacity }
                var used = 0
                var made = 0
                let failure = inputs.withUnsafeMutableBufferPointer { ins in
                    targets.withUnsafeMutableBufferPointer { outs in
                        // No input pointers at all (nil) is how soxr is told to flush.
                        soxr_process(
                            handle, input == nil ? nil : UnsafeRawPointer(ins.baseAddress), inputFrames - consumed,
                            &used, UnsafeMutableRawPointer(outs.baseAddress), capacity, &made)
                    }
                }
                if let failure { throw Self.failure(input == nil ? "soxr_process (flush)" : "soxr_process", failure) }
                consumed += used
                for channel in 0..<channels {
                    let start = channel * capacity
                    outputs[channel].append(contentsOf: out[start..<(start + made)])
                }
                if input == nil ? made == 0 : (consumed >= inputFrames || (used == 0 && made == 0)) { break }
            }
        }
        return outputs
    }

    private static func failure(_ call: String, _ message: soxr_error_t) -> SleepCycleSdkError {
        .dataSourceFailure("resampler: \(call) failed (\(String(cString: message)))")
    }
}
