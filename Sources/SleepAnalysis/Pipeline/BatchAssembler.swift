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
        guard sourceRate.isFinite, AudioFileReader.analysableSampleRates.contains(sourceRate) else {
            throw SleepCycleSdkError.invalidInput("audio sample rate \(sourceRate) Hz is outside 4 kHz ... 384 kHz")
        }
        guard (1...2).contains(sourceChannelCount) else {
            throw SleepCycleSdkError.invalidInput("\(sourceChannelCount) audio channels; mono or stereo expected")
        }
        self.layout = layout
        self.sourceChannelCount = sourceChannelCount
        let signals = layout.signalCount(sourceChannelCount: sourceChannelCount)
        // Two signals are resampled one after the other (planar): the same samples, without interleaving them.
        resampler = try Resampler(
            inputRate: sourceRate, outputRate: Double(AudioBatch.sampleRate), channelCount: signals,
            planar: signals == 2)
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
        if resampler.isPlanar {
            return batches(adding: try resampler.process(planar: DSPInterleave.planar(chunk.samples)))
        }
        return batches(adding: [try resampler.process(signalsInterleaved(chunk))])
    }

    /// Flushes the resampler at the end of the stream; returns the last batches, the final one possibly short.
    func finish() throws -> [[[Float]]] {
        var batches = self.batches(adding: resampler.isPlanar ? try resampler.flushChannels() : [try resampler.flush()])
        if let first = pending.first, !first.isEmpty {
            batches.append(pending)
            nextBatchFirstSample += Int64(first.count)
            pending = pending.map { _ in [] }
        }
        return batches
    }

    /// The one signal of a mono source, or of a stereo source mixed down.
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

    /// Adds the next samples of every signal (as many in each); returns the batches completed. A batch is its
    /// pending array handed over once full: its samples are copied once, on the way in.
    private func batches(adding signals: [[Float]]) -> [[[Float]]] {
        guard signals.count == pending.count, let added = signals.first?.count, added > 0 else { return [] }
        var completed = [[[Float]]](repeating: [], count: signals.count)
        for (index, samples) in signals.enumerated() {
            var offset = 0
            while offset < samples.count {
                if pending[index].isEmpty { pending[index].reserveCapacity(batchLength) }
                let take = min(batchLength - pending[index].count, samples.count - offset)
                pending[index].append(contentsOf: samples[offset..<(offset + take)])
                offset += take
                if pending[index].count == batchLength {
                    completed[index].append(pending[index])
                    pending[index] = []
                }
            }
        }
        let count = completed[0].count
        nextBatchFirstSample += Int64(count * batchLength)
        return (0..<count).map { batch in completed.map { $0[batch] } }
    }
}
