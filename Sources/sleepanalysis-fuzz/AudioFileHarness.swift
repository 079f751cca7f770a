import Foundation
import SleepAnalysis

/// Audio files: the bytes become a file that `AudioFileReader` opens (libsndfile — a FLAC through its header-patching
/// virtual file — after the WAVE truncation check) and reads to the end, in blocks and mixed to mono, digesting the
/// samples as a replay does. Bad input must be `invalidInput`.
enum AudioFileHarness {
    /// The harness.
    static let harness = FuzzHarness(
        name: "audio", summary: "AudioFileReader: open and read a whole audio file (WAV, FLAC, OGG, ...)"
    ) { bytes in
        let url = ScratchDirectory.write(bytes, named: "input.wav")
        do {
            let reader = try AudioFileReader(url: url)
            reader.digestsContent = true
            while try reader.readMono(maxFrames: 4_096) != nil {}
            return true
        } catch {
            FuzzContract.requireDocumented(error, harness: "audio") {
                if case .invalidInput = $0 { true } else { false }
            }
            return false
        }
    }
}
