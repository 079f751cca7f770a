import Foundation

/// The stereo cues of a two-channel stream on non-overlapping frames, measured only when asked for.
///
/// Frame `i` covers stream samples `i * frameLength ..< (i + 1) * frameLength` of each channel (counted from the
/// first sample added) and is complete once the batch holding its last sample is added. A complete frame is kept
/// unmeasured, with its samples, until `measure(from:)` measures it (GCC-PHAT delay and confidence of the whole
/// frame, `DSPStereoHandle`) or `discardUnmeasured(before:)` drops it. Its time is the middle of the part of the
/// frame inside the batch that completed it, and its energies are those of that part. Measuring a frame later
/// gives the same cue as measuring it at once. Not thread-safe: one owner.
final class StereoCueFrames {
    /// One measured frame.
    struct Cue {
        /// The middle of the frame's part in the batch that completed it.
        var time: Date
        /// GCC-PHAT time difference (s), positive when the sound reached the primary channel first.
        var delay: Double
        /// Strength of the correlation peak, 0...1.
        var confidence: Double
        /// Sum of squares of the primary channel's samples over that part.
        var primaryEnergy: Double
        /// Sum of squares of the secondary channel's samples over that part.
        var secondaryEnergy: Double
    }

    private struct Unmeasured {
        /// Index of the frame.
        var index: Int64
        var time: Date
        /// Stream index of the first sample of the frame's part in its batch, and how many samples it has.
        var partStart: Int64
        var partCount: Int
    }

    /// Samples per frame.
    let frameLength: Int
    /// The measured frames, oldest first.
    private(set) var measured: [Cue] = []
    /// How many frames were measured since the stream began.
    private(set) var measuredCount = 0
    private let handle: DSPStereoHandle
    private var unmeasured: [Unmeasured] = []
    /// Samples of each channel from stream index `bufferStart` on.
    private var primary: [Float] = []
    private var secondary: [Float] = []
    private var bufferStart: Int64 = 0
    private var framesCompleted: Int64 = 0

    /// Sets up the analysis.
    ///
    /// - Parameters:
    ///   - sampleRate: samples per second of each channel.
    ///   - frameLength: samples per frame.
    ///   - maxDelaySeconds: the largest time difference searched.
    /// - Throws: `SleepCycleSdkError.invalidConfiguration` for a bad rate, length or delay.
    init(sampleRate: Double, frameLength: Int, maxDelaySeconds: Double) throws {
        self.frameLength = frameLength
        do throws(DSPError) {
            handle = try DSPStereoHandle(
                sampleRate: sampleRate, frameSize: frameLength, maxDelaySeconds: maxDelaySeconds)
        } catch {
            throw error.sdkError
        }
    }

    /// Whether frames wait to be measured.
    var hasUnmeasured: Bool { !unmeasured.isEmpty }

    /// Adds the next batch of each channel (as many samples in each); the frames it completes wait unmeasured.
    func add(primary first: AudioBatch, secondary second: AudioBatch) {
        let length = min(first.samples.count, second.samples.count)
        let streamBefore = bufferStart + Int64(primary.count)
        primary.append(contentsOf: first.samples[0..<length])
        secondary.append(contentsOf: second.samples[0..<length])
        let rate = Double(AudioBatch.sampleRate)
        let frame = Int64(frameLength)
        while (framesCompleted + 1) * frame <= streamBefore + Int64(length) {
            // The frame's part in this batch, in the batch's own sample indices.
            let end = (framesCompleted + 1) * frame - first.firstSampleIndex
            let start = max(0, Int(end) - frameLength)
            let stop = min(length, Int(end))
            if start < stop {
                unmeasured.append(
                    Unmeasured(
                        index: framesCompleted,
                        time: first.startTime.addingTimeInterval(Double(start + stop) / 2 / rate),
                        partStart: streamBefore + Int64(start), partCount: stop - start))
            }
            framesCompleted += 1
        }
        compact()
    }

    /// Measures the waiting frames whose time is `start` or later; the measured frames stay in time order.
    func measure(from start: Date) {
        guard let first = unmeasured.firstIndex(where: { $0.time >= start }) else { return }
        let lastBefore = measured.last?.time
        for frame in unmeasured[first...] {
            if let cue = measure(frame) { measured.append(cue) }
            measuredCount += 1
        }
        if let lastBefore, unmeasured[first].time < lastBefore { measured.sort { $0.time < $1.time } }
        unmeasured.removeSubrange(first...)
        compact()
    }

    /// Drops the waiting frames whose time is before `time`: they will not be measured.
    func discardUnmeasured(before time: Date) {
        guard let keep = unmeasured.firstIndex(where: { $0.time >= time }) else {
            unmeasured.removeAll(keepingCapacity: true)
            compact()
            return
        }
        if keep > 0 { unmeasured.removeFirst(keep) }
        compact()
    }

    /// Drops the measured frames whose time is before `time`.
    func forget(before time: Date) {
        guard let keep = measured.firstIndex(where: { $0.time >= time }) else {
            measured.removeAll(keepingCapacity: true)
            return
        }
        if keep > 0 { measured.removeFirst(keep) }
    }

    /// The frame's cue; nil when the C analysis refuses the frame (it cannot: the pointers are valid).
    private func measure(_ frame: Unmeasured) -> Cue? {
        let frameStart = Int(frame.index * Int64(frameLength) - bufferStart)
        let partStart = Int(frame.partStart - bufferStart)
        return primary.withUnsafeBufferPointer { left in
            secondary.withUnsafeBufferPointer { right in
                let result: DSPStereoHandle.Cues
                do throws(DSPError) {
                    result = try handle.analyze(
                        frameAt: left.baseAddress! + frameStart, right.baseAddress! + frameStart)
                } catch {
                    return nil
                }
                return Cue(
                    time: frame.time, delay: result.delaySeconds, confidence: result.confidence,
                    primaryEnergy: Self.energy(left, from: partStart, count: frame.partCount),
                    secondaryEnergy: Self.energy(right, from: partStart, count: frame.partCount))
            }
        }
    }

    /// The sum of squares in double precision, sample after sample.
    private static func energy(_ samples: UnsafeBufferPointer<Float>, from start: Int, count: Int) -> Double {
        var sum = 0.0
        for index in start..<(start + count) { sum += Double(samples[index]) * Double(samples[index]) }
        return sum
    }

    /// Drops the samples before the first waiting frame (or the frame not yet complete) once they are at least
    /// half the buffer, so that what is kept moves about once.
    private func compact() {
        var keepFrom = framesCompleted * Int64(frameLength)
        if let first = unmeasured.first { keepFrom = min(first.index * Int64(frameLength), first.partStart) }
        let drop = Int(keepFrom - bufferStart)
        guard drop > 0, 2 * drop >= primary.count else { return }
        primary.removeFirst(drop)
        secondary.removeFirst(drop)
        bufferStart = keepFrom
    }
}
