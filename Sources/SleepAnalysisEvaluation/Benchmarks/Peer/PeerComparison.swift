import Foundation

/// The whole pipeline and the librosa peer on the same file: both CPU times, both multiples of real time per core,
/// and how many times more CPU the peer took.
package struct PeerComparison: Equatable, Sendable {
    /// Seconds of audio (the pipeline's).
    package let audioSeconds: Double
    /// The pipeline's CPU seconds.
    package let pipelineCPUSeconds: Double
    /// What the peer measured.
    package let peer: PythonPeer.Measurement

    /// The peer's CPU over the pipeline's: above 1 when the pipeline is cheaper.
    package var ratio: Double { peer.cpuSeconds / pipelineCPUSeconds }
    /// The pipeline's multiple of real time per CPU core.
    package var pipelineRealTimePerCore: Double { audioSeconds / pipelineCPUSeconds }
    /// The peer's multiple of real time per CPU core.
    package var peerRealTimePerCore: Double { peer.audioSeconds / peer.cpuSeconds }

    /// Checks that both read the same audio.
    ///
    /// - Throws: `PeerComparisonError.differentAudio` when their durations differ by more than a second, or the
    ///   pipeline's CPU time is not positive.
    package init(
        audioSeconds: Double, pipelineCPUSeconds: Double, peer: PythonPeer.Measurement
    ) throws(PeerComparisonError) {
        guard pipelineCPUSeconds > 0, abs(audioSeconds - peer.audioSeconds) <= 1 else {
            throw .differentAudio(pipelineSeconds: audioSeconds, peerSeconds: peer.audioSeconds)
        }
        self.audioSeconds = audioSeconds
        self.pipelineCPUSeconds = pipelineCPUSeconds
        self.peer = peer
    }
}

/// The pipeline and the peer cannot be compared.
package enum PeerComparisonError: Error, Equatable, CustomStringConvertible {
    /// They analysed different lengths of audio (s), or the pipeline none.
    case differentAudio(pipelineSeconds: Double, peerSeconds: Double)

    /// Both durations.
    package var description: String {
        switch self {
        case .differentAudio(let pipeline, let peer):
            return String(
                format: "the pipeline analysed %.1f s of audio and the peer %.1f s: not the same file", pipeline, peer)
        }
    }
}
