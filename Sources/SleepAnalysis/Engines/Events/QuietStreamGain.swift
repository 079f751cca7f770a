import Foundation

/// A gain for the events detector's view of a quiet stream, so that a night recorded far below the levels the event
/// models were trained at (a microphone across the room, a low capture gain) is classified as if it had been
/// recorded louder.
///
/// The event models were trained on scenes whose room tone lies between −75 and −48 dBFS. A bedroom recorded with
/// a low gain sits lower: the demo night 30 dB down (room tone about −90 dBFS, snores about −65) keeps 6 of its
/// snoring events. Once a minute the gain measures the stream's floor, the 10th percentile of the last minute's
/// frame levels (frames of digital silence, below `silenceDbfs`, left out; a minute mostly of digital silence is
/// not measured), and sets the gain that lifts that floor to `lowestTrainedFloorDbfs`, at most `maximumGainDb`;
/// after the first measurement it moves by at most `maximumStepDb` a minute. A floor at or above the lowest trained
/// one gets no gain, so streams at the trained levels (and anything shorter than a minute, such as a clip) are
/// classified exactly as without it.
///
/// The gain acts on the frames the detector reads (log-mel energies and frame levels, as if the samples had been
/// scaled), not on the audio: the sound level, breathing and audio health see the stream as recorded.
struct QuietStreamGain {
    /// The lowest room-tone level of the event models' training scenes (dBFS): the floor a quiet stream is lifted to.
    static let lowestTrainedFloorDbfs: Float = -72
    /// The largest gain (dB).
    static let maximumGainDb: Float = 30
    /// The largest change of the gain from one minute to the next (dB).
    static let maximumStepDb: Float = 3
    /// Frames quieter than this (dBFS) are digital silence (padding, a muted input): not part of the floor.
    static let silenceDbfs: Float = -110
    /// Frames per measurement: one minute of 10-ms frames.
    static let framesPerMeasurement = 6_000

    /// The gain applied now (dB; 0 until the first measured minute below the trained floors).
    private(set) var gainDb: Float = 0
    private var measured = false
    private var levels: [Float] = []
    private var framesSeen = 0
    private let logFloor: Float

    /// A gain for frames whose log-mel energies carry `logFloor` (the front end's `logFloor`).
    init(logFloor: Float = FrontEndConfiguration.standard.logFloor) {
        self.logFloor = logFloor
        levels.reserveCapacity(Self.framesPerMeasurement)
    }

    /// Counts a block's frame levels towards the next measurement; the gain changes at most once per call, for the
    /// blocks after this one.
    ///
    /// - Parameter dbfs: The block's unweighted frame levels (dBFS), as recorded.
    mutating func add(dbfs: ArraySlice<Float>) {
        for level in dbfs {
            if level >= Self.silenceDbfs { levels.append(level) }
            framesSeen += 1
            if framesSeen == Self.framesPerMeasurement { measure() }
        }
    }

    /// The block as the detector should read it: unchanged without a gain, else its log-mel energies and levels
    /// raised by `gainDb`.
    func apply(to block: FeatureBlock) -> FeatureBlock {
        guard gainDb > 0 else { return block }
        var raised = block
        let factor = powf(10, gainDb / 10)
        let floor = logFloor
        raised.logMel = block.logMel.map { value in
            logf(factor * max(expf(value) - floor, 0) + floor)
        }
        raised.dbfs = block.dbfs.map { $0 >= Self.silenceDbfs ? $0 + gainDb : $0 }
        return raised
    }

    private mutating func measure() {
        defer {
            levels.removeAll(keepingCapacity: true)
            framesSeen = 0
        }
        // Mostly digital silence: nothing to measure.
        guard levels.count * 2 >= Self.framesPerMeasurement else { return }
        guard let floor = OrderStatistic.select(levels.count / 10, in: &levels) else { return }
        let wanted = min(max(Self.lowestTrainedFloorDbfs - floor, 0), Self.maximumGainDb)
        if measured {
            gainDb += min(max(wanted - gainDb, -Self.maximumStepDb), Self.maximumStepDb)
        } else {
            gainDb = wanted
            measured = true
        }
    }
}
