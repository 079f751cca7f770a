/// The envelope of breath and snore sounds: per-band log energies of audio at a low frame rate
/// (`DSPBreathEnvelopeHandle`, that is `sa_breath_env_*`, does the work). Not thread-safe.
final class BreathEnvelope {
    /// Bands per frame.
    let bandCount: Int
    /// Samples per frame.
    let hop: Int
    private let envelope: DSPBreathEnvelopeHandle
    private var output: [Float] = []

    /// Creates an extractor for audio at `sampleRate` with frames of `frameSeconds`.
    ///
    /// - Throws: `SleepCycleSdkError.invalidConfiguration` for an unusable rate or frame length.
    init(sampleRate: Double, frameSeconds: Double) throws {
        do throws(DSPError) {
            envelope = try DSPBreathEnvelopeHandle(sampleRate: sampleRate, frameSeconds: frameSeconds)
        } catch {
            throw error.sdkError
        }
        bandCount = envelope.bandCount
        hop = Int((sampleRate * frameSeconds).rounded())
    }

    /// Feeds samples; returns the frames they complete, frame-major (`bandCount` values each).
    func process(_ samples: [Float]) -> [Float] {
        let capacity = samples.count / hop + 2
        if output.count < capacity * bandCount { output = [Float](repeating: 0, count: capacity * bandCount) }
        let written: Int
        do throws(DSPError) {
            written = try output.withUnsafeMutableBufferPointer { frames throws(DSPError) in
                try envelope.process(
                    samples, into: UnsafeMutableBufferPointer(rebasing: frames[..<(capacity * bandCount)]))
            }
        } catch {
            // The arguments are sized above, so the call cannot fail; an error would only drop these frames.
            return []
        }
        return Array(output[0..<(written * bandCount)])
    }

    /// Forgets filter state and any partial frame (after a gap in the input).
    func reset() { envelope.reset() }
}
