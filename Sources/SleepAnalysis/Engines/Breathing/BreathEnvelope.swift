/// The envelope of breath and snore sounds: per-band log energies at a low frame rate, from the front end's log-mel
/// frames (`DSPBreathEnvelopeHandle`, that is `sa_breath_env_*`, does the work: the energy each band's filters
/// would pass, read from the mel energies instead of filtering every sample). Not thread-safe.
///
/// An envelope frame averages `framesPerEnvelopeFrame` consecutive front-end frames, starting at a front-end frame
/// whose index is a multiple of that count, so the envelope frames of a stream do not depend on how it is split.
final class BreathEnvelope {
    /// Bands per frame.
    let bandCount: Int
    /// Front-end frames per envelope frame.
    let framesPerEnvelopeFrame: Int
    private let envelope: DSPBreathEnvelopeHandle
    /// The front-end frame the envelope takes next; frames before it are skipped (nil: none taken yet).
    private var nextFrameIndex: Int64?
    private var output: [Float] = []

    /// Creates an envelope of the frames of a front end with `frontEnd`'s settings, with frames of `frameSeconds`.
    ///
    /// - Throws: `SleepCycleSdkError.invalidConfiguration` when `frameSeconds` is not a whole number of front-end
    ///   hops, or for unusable front-end settings.
    init(frontEnd: FrontEndConfiguration, frameSeconds: Double) throws {
        let hops = frameSeconds / frontEnd.frameDuration
        framesPerEnvelopeFrame = Int(hops.rounded())
        guard framesPerEnvelopeFrame >= 1, abs(hops - Double(framesPerEnvelopeFrame)) < 1e-6 else {
            throw SleepCycleSdkError.invalidConfiguration(
                "breathing: frameSeconds must be a whole number of \(frontEnd.frameDuration)-s front-end hops")
        }
        do throws(DSPError) {
            envelope = try DSPBreathEnvelopeHandle(
                sampleRate: frontEnd.sampleRate, fftSize: frontEnd.fftSize, hopSize: frontEnd.hopSize,
                melBandCount: frontEnd.melBandCount, melLowHz: frontEnd.melLowHz, melHighHz: frontEnd.melHighHz,
                logFloor: frontEnd.logFloor, framesPerEnvelopeFrame: framesPerEnvelopeFrame)
        } catch {
            throw error.sdkError
        }
        bandCount = envelope.bandCount
    }

    /// Whether `block` carries on where the envelope's input stopped (false before any input).
    func continues(_ block: FeatureBlock) -> Bool { nextFrameIndex == block.firstFrameIndex }

    /// Forgets any partial frame and starts again at the first envelope frame boundary at or after front-end frame
    /// `index`.
    ///
    /// - Returns: The index of the front-end frame that begins the next envelope frame.
    func restart(at index: Int64) -> Int64 {
        envelope.reset()
        let per = Int64(framesPerEnvelopeFrame)
        let boundary = (index + per - 1) / per * per
        nextFrameIndex = boundary
        return boundary
    }

    /// Feeds the frames `range` of `block` (they must carry on from the last frames fed, see `continues`); returns
    /// the envelope frames they complete, frame-major (`bandCount` values each). A block with another number of mel
    /// bands than the front end this envelope was made for gives nothing.
    func process(_ block: FeatureBlock, frames range: Range<Int>) -> [Float] {
        guard let next = nextFrameIndex else { return [] }
        let skipped = Int(max(0, min(Int64(range.count), next - block.firstFrameIndex - Int64(range.lowerBound))))
        let taken = (range.lowerBound + skipped)..<range.upperBound
        nextFrameIndex = max(next, block.firstFrameIndex + Int64(range.upperBound))
        guard !taken.isEmpty else { return [] }
        let capacity = taken.count / framesPerEnvelopeFrame + 1
        if output.count < capacity * bandCount { output = [Float](repeating: 0, count: capacity * bandCount) }
        let bands = block.melBandCount
        let written: Int
        do throws(DSPError) {
            written = try block.logMel.withUnsafeBufferPointer { logMel throws(DSPError) in
                try output.withUnsafeMutableBufferPointer { frames throws(DSPError) in
                    try envelope.process(
                        logMel: UnsafeBufferPointer(
                            rebasing: logMel[(taken.lowerBound * bands)..<(taken.upperBound * bands)]),
                        frameCount: taken.count, into: frames)
                }
            }
        } catch {
            // The output is sized above: only a block of another front end's frames (other mel bands) fails.
            return []
        }
        return Array(output[0..<(written * bandCount)])
    }
}
