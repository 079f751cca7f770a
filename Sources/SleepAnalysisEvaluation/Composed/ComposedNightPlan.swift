import Foundation
import SleepAnalysis

/// What happens in a composed night, epoch by epoch: the scored stages of a real hypnogram, and the clips and
/// body movements `ComposedNightRules` place in them (drawn with a seeded generator: same inputs, same night).
package struct ComposedNightPlan: Sendable {
    /// One labelled clip placed in the night.
    package struct Placement: Sendable, Equatable {
        /// The clip's manifest class.
        package var className: String
        /// The clip's file.
        package var url: URL
        /// Seconds from the night's start.
        package var start: Double
    }

    /// The scored stage of each 30-second epoch (nil: unscored).
    package var stages: [SleepStage?]
    /// The clips, by start time.
    package var placements: [Placement]
    /// Start times (s) of the body movements.
    package var movements: [Double]
    /// Epochs with snoring.
    package var snoringEpochs: Set<Int>
    /// Epochs with a body movement.
    package var movementEpochs: Set<Int>
    /// The night's length (s).
    package var duration: Double { Double(stages.count) * 30 }

    /// Draws a night.
    ///
    /// - Parameters:
    ///   - stages: The scored stages, one per 30-second epoch.
    ///   - clips: The labelled clips (`shared/data/audio/MANIFEST.tsv`); those of the classes the rules place are
    ///     used.
    ///   - rules: The rules.
    ///   - seed: The generator's seed.
    /// - Throws: `SleepCycleSdkError.invalidInput` when the clips lack a class the rules place.
    package init(stages: [SleepStage?], clips: EventClipManifest, rules: ComposedNightRules, seed: UInt64) throws {
        var byClass: [String: [URL]] = [:]
        for entry in clips.entries where rules.levelDbfs[entry.className] != nil {
            byClass[entry.className, default: []].append(entry.url)
        }
        for name in rules.levelDbfs.keys where byClass[name] == nil {
            throw SleepCycleSdkError.invalidInput("composed night: no '\(name)' clips in the manifest")
        }
        var random = SplitMix64(seed: seed)
        self.stages = stages
        placements = []
        movements = []
        snoringEpochs = []
        movementEpochs = []
        var previous: SleepStage?
        for (epoch, scored) in stages.enumerated() {
            let stage = scored ?? previous ?? .awake
            let epochStart = Double(epoch) * 30
            func place(_ name: String, at offset: Double) {
                let urls = byClass[name]!
                placements.append(
                    Placement(className: name, url: urls[random.index(urls.count)], start: epochStart + offset))
            }
            let transition = previous != nil && previous != stage
            let movementChance = max(rules.movement[stage] ?? 0, transition ? rules.movementAtTransition : 0)
            if random.unit() < movementChance {
                let offset = random.unit() * (30 - rules.movementSeconds)
                movements.append(epochStart + offset)
                movementEpochs.insert(epoch)
                place("movement", at: offset)
            }
            let snoring = snoringEpochs.contains(epoch - 1)
            if random.unit() < (snoring ? rules.snoringContinue[stage] : rules.snoringStart[stage]) ?? 0 {
                snoringEpochs.insert(epoch)
                let interval = 60 / rules.breathsPerMinute
                var offset = random.unit() * interval
                while offset < 30 - 1 {
                    place("snoring", at: offset)
                    offset += interval
                }
            }
            if random.unit() < rules.talking[stage] ?? 0 {
                var offset = random.unit() * 20
                for _ in 0..<(2 + random.index(3)) {
                    place("talking", at: offset)
                    offset += 1.5
                }
            }
            if random.unit() < rules.coughing[stage] ?? 0 { place("coughing", at: random.unit() * 28) }
            previous = stage
        }
        placements.sort { $0.start < $1.start }
    }
}

/// A small seeded generator (SplitMix64), so a composed night is the same on every machine.
struct SplitMix64 {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Uniform in [0, 1).
    mutating func unit() -> Double { Double(next() >> 11) / Double(1 << 53) }

    /// Uniform in 0..<count.
    mutating func index(_ count: Int) -> Int { Int(next() % UInt64(count)) }

    /// Standard normal (Box–Muller).
    mutating func gaussian() -> Double {
        let u = max(unit(), 1e-12)
        return (-2 * log(u)).squareRoot() * cos(2 * Double.pi * unit())
    }
}
