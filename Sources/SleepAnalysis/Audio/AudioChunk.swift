import Foundation

/// A block of audio: interleaved samples, `channelCount` per frame, at `sampleRate`.
public struct AudioChunk: Sendable {
    /// Interleaved samples in -1...1.
    public var samples: [Float]
    /// Channels per frame (1 or 2).
    public var channelCount: Int
    /// Frames per second.
    public var sampleRate: Double
    /// The index of the chunk's first frame since the source started (frames, not samples).
    public var firstFrameIndex: Int64

    /// Creates a chunk.
    ///
    /// - Parameters:
    ///   - samples: Interleaved samples in -1...1.
    ///   - channelCount: Channels per frame (1 or 2).
    ///   - sampleRate: Frames per second.
    ///   - firstFrameIndex: The index of the chunk's first frame since the source started (frames, not samples).
    public init(samples: [Float], channelCount: Int, sampleRate: Double, firstFrameIndex: Int64) {
        self.samples = samples
        self.channelCount = channelCount
        self.sampleRate = sampleRate
        self.firstFrameIndex = firstFrameIndex
    }

    /// Frames in the chunk.
    public var frameCount: Int { channelCount > 0 ? samples.count / channelCount : 0 }
}
