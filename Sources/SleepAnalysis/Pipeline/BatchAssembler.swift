import Foundation

/// Turns the source's audio chunks (any rate, one or two channels) into exact one-second 16 kHz batches of each
/// analysis signal.
///
/// Batch `k` of every signal holds analysis samples `k * 16000 ..< (k + 1) * 16000`, whatever the sizes of the
/// chunks that came in: no sample is lost or repeated. Not thread-safe: one pipeline thread owns it.
final class BatchAssembler {
    /// Samples per batch.
    let batchLength = AudioBatch.standardLength
    private let layout: SignalLayout
    private let sourceChannelCount: Int
    private let resampler: Resampler
    private var pending: [[Float]]
    /// Index of the first sample of the next batch to emit.
    private(set) var nextBatchFirstSample: Int64 = 0
    /// Source frames seen so far (to check that chunks are contiguous).
    private var expectedFrameIndex: Int64 = 0

    /// Creates an assembler for a source of `sourceChannelCount` channels at `sourceRate`.
    ///
    /// - Throws: `SleepCycleSdkError.invalidInput` for a rate or channel count the analysis cannot take.
    init(sourceRate: Double, sourceChannelCount: Int, layout: SignalLayout) throws {
        guard sourceRate.isFinite, sourceRate >= 4000, sourceRate <= 384_000 else {
            throw SleepCycleSdkError.invalidInput("audio sample rate \(sourceRate) Hz is outside 4 kHz ... 384 kHz")
        }
        guard (1...2).contains(sourceChannelCount) else {
            throw SleepCycleSdkError.invalidInput("\(sourceChannelCount) audio channels; mono or stereo expected")
        }
        self.layout = layout
        self.sourceChannelCount = sourceChannelCount
        let signals = layout.signalCount(sourceChannelCount: sourceChannelCount)
        resampler = try Resampler(
            inputRate: sourceRate, outputRate: Double(AudioBatch.sampleRate), channelCount: signals)
        pending = Array(repeating: [], count: signals)
    }

    /// The number of analysis signals.
    var signalCount: Int { pending.count }

    /// Adds a chunk; returns the complete batches it finished, as `[signal][sample]` per batch.
    ///
    /// - Throws: `SleepCycleSdkError.invalidInput` when the chunk does not continue the previous one.
    func append(_ chunk: AudioChunk) throws -> [[[Float]]] {
        guard chunk.channelCount == sourceChannelCount else {
            throw SleepCycleSdkError.invalidInput(
                "audio chunk has \(chunk.channelCount) channels, the source announced \(sourceChannelCount)")
        }
        guard chunk.firstFrameIndex == expectedFrameIndex else {
            throw SleepCycleSdkError.invalidInput(
                "audio chunk starts at frame \(chunk.firstFrameIndex), expected \(expectedFrameIndex)")
        }
        expectedFrameIndex += Int64(chunk.frameCount)
        let input = signalsInterleaved(chunk)
        return split(try resampler.process(input))
    }

    /// Flushes the resampler at the end of the stream; returns the last batches, the final one possibly short.
    func finish() throws -> [[[Float]]] {
        var batches = split(try resampler.flush())
        if let first = pending.first, !first.isEmpty {
            batches.append(pending)
            nextBatchFirstSample += Int64(first.count)
            pending = pending.map { _ in [] }
        }
        return batches
    }

    private func signalsInterleaved(_ chunk: AudioChunk) -> [Float] {
        switch layout {
        case .perChannel:
            return chunk.samples
        case .mixdown:
            guard sourceChannelCount == 2 else { return chunk.samples }
            let frames = chunk.frameCount
            var mono = [Float](repeating: 0, count: frames)
            chunk.samples.withUnsafeBufferPointer { input in
                for frame in 0..<frames { mono[frame] = 0.5 * (input[2 * frame] + input[2 * frame + 1]) }
            }
            return mono
        }
    }

    private func split(_ interleaved: [Float]) -> [[[Float]]] {
        let signals = pending.count
        guard signals > 0, !interleaved.isEmpty else { return [] }
        if signals == 1 {
            pending[0].append(contentsOf: interleaved)
        } else {
            // Two signals (a source has at most two channels).
            let (first, second) = DSPInterleave.split(interleaved)
            pending[0].append(contentsOf: first)
            pending[1].append(contentsOf: second)
        }
        var batches: [[[Float]]] = []
        while pending[0].count >= batchLength {
            batches.append(pending.map { Array($0[0..<batchLength]) })
            for signal in 0..<signals { pending[signal].removeFirst(batchLength) }
            nextBatchFirstSample += Int64(batchLength)
        }
        return batches
    }
}
