import Foundation
import SleepAnalysis

/// Runs a recording through the analysis front end (read, resample to 16 kHz, STFT, A-weighting, mel bands)
/// for the benchmark, keeping nothing but counts, so memory stays one block whatever the length.
package enum FrontEndRun {
    /// What a run did.
    package struct Summary: Sendable {
        /// Seconds of audio read.
        package var audioDuration: Double
        /// The file's sample rate (Hz).
        package var inputSampleRate: Double
        /// Analysis frames made (0 when only reading).
        package var frames: Int64
        /// Sum of every frame's dB SPL and of each block's last features, so no stage can be optimised away.
        package var checksum: Double
    }

    /// Which stages to run.
    package enum Stages: String, Sendable, CaseIterable {
        /// Only decode the file.
        case read
        /// Decode the file and fingerprint its samples, as a replay does for resuming (`read` plus the digest).
        case digest
        /// Decode and resample to 16 kHz.
        case resample
        /// Decode, resample and the whole front end.
        case frontEnd
    }

    /// Streams `file` through the chosen stages.
    ///
    /// - Parameters:
    ///   - file: the recording (mono or stereo; stereo is averaged to mono before resampling).
    ///   - stages: how far to go.
    ///   - blockFrames: frames per read (16 Ki keeps each block under glibc's 128 KiB mmap threshold).
    /// - Returns: the run's summary.
    /// - Throws: `SleepCycleSdkError.invalidInput` for an unreadable file.
    package static func run(file: URL, stages: Stages, blockFrames: Int = 16_384) throws -> Summary {
        let reader = try AudioFileReader(url: file)
        reader.digestsContent = stages == .digest
        let resampler = try Resampler(inputRate: reader.sampleRate, outputRate: 16_000, channelCount: 1)
        let frontEnd = try FrontEnd()
        var checksum = 0.0
        var frames: Int64 = 0
        func analyze(_ samples: [Float]) {
            let block = frontEnd.process(samples)
            frames += Int64(block.frameCount)
            checksum += Double(block.dbSpl.reduce(0, +)) + Double(block.logMel.last ?? 0) + Double(block.dbfs.last ?? 0)
        }
        while let mono = try reader.readMono(maxFrames: blockFrames) {
            switch stages {
            case .read, .digest:
                checksum += Double(mono.first ?? 0)
            case .resample:
                checksum += Double(try resampler.process(mono).first ?? 0)
            case .frontEnd:
                analyze(try resampler.process(mono))
            }
        }
        if stages == .frontEnd { analyze(try resampler.flush()) }
        return Summary(
            audioDuration: Double(reader.framesRead) / reader.sampleRate, inputSampleRate: reader.sampleRate,
            frames: frames, checksum: checksum)
    }
}
