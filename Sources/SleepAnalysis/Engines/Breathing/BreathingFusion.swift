/// One sensor's breathing estimate for a window.
struct ModalityEstimate: Sendable, Hashable {
    /// Breaths per minute.
    var bpm: Double
    /// Confidence 0...1.
    var confidence: Double
}

/// Combines the audio and accelerometer estimates of one window.
enum BreathingFusion {
    /// The fused estimate, or nil when neither sensor gave one.
    ///
    /// Agreeing estimates are averaged by confidence and reinforce each other. When one is twice the other, the
    /// accelerometer wins: chest motion makes one cycle per breath, whereas inhale and exhale may both sound.
    /// Otherwise the more confident one is kept, with its confidence lowered by the disagreement.
    /// - Parameters:
    ///   - audio: The audio estimate.
    ///   - accelerometer: The accelerometer estimate.
    ///   - tolerance: Relative difference under which two rates agree.
    static func fuse(
        audio: ModalityEstimate?, accelerometer: ModalityEstimate?, tolerance: Double
    )
        -> ModalityEstimate?
    {
        guard let audio else { return accelerometer }
        guard let motion = accelerometer else { return audio }
        func agree(_ a: Double, _ b: Double) -> Bool { abs(a - b) <= tolerance * (a + b) / 2 }
        if agree(audio.bpm, motion.bpm) {
            let weight = audio.confidence + motion.confidence
            let bpm =
                weight > 0
                ? (audio.bpm * audio.confidence + motion.bpm * motion.confidence) / weight
                : (audio.bpm + motion.bpm) / 2
            return ModalityEstimate(bpm: bpm, confidence: 1 - (1 - audio.confidence) * (1 - motion.confidence))
        }
        if agree(audio.bpm, 2 * motion.bpm) || agree(2 * audio.bpm, motion.bpm) {
            return motion
        }
        let best = audio.confidence >= motion.confidence ? audio : motion
        let other = audio.confidence >= motion.confidence ? motion : audio
        return ModalityEstimate(bpm: best.bpm, confidence: best.confidence * (1 - 0.5 * other.confidence))
    }
}
