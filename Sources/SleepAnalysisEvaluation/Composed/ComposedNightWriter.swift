import Foundation
import SleepAnalysis

/// Writes a composed night to files: a 16 kHz mono FLAC (quiet bedroom background with the plan's clips mixed
/// in at their levels; the background is a 61-second loop of soft noise) and an accelerometer CSV of a phone on the mattress (10 Hz, `timestamp,x,y,z` in g:
/// gravity, sensor noise and breathing motion at rest, a burst at each body movement). Both are streamed: one
/// second of audio and only the clips sounding in it are held at a time.
package enum ComposedNightWriter {
    /// Accelerometer readings per second.
    static let accelerometerRate = 10

    /// Writes the night's audio.
    ///
    /// - Parameters:
    ///   - plan: The night.
    ///   - rules: Levels of the background and the clips.
    ///   - url: The FLAC file (replaced).
    ///   - seed: The background noise's seed.
    ///   - bandLimit: A band limit to put the night through (nil: full band), as a telephone-band microphone or a
    ///     codec would: applied to the room tone's loop (circularly) and to each clip before they are mixed, which
    ///     by linearity is the night band-limited, bar the rare sample clipped at full scale.
    /// - Throws: `SleepCycleSdkError` when a clip cannot be read, band-limited or the file written.
    package static func writeAudio(
        _ plan: ComposedNightPlan, rules: ComposedNightRules, to url: URL, seed: UInt64,
        bandLimit: EventBandLimit? = nil
    ) throws {
        let rate = AudioBatch.sampleRate
        let writer = try AudioFileWriter(url: url, sampleRate: rate, channelCount: 1, format: .flac16)
        let fullBandTone = roomTone(seconds: toneSeconds, level: rules.roomToneDbfs, seed: seed)
        let tone = try bandLimit.map { try circularly($0, fullBandTone) } ?? fullBandTone
        var sounding: [(samples: [Float], start: Int)] = []
        var next = 0
        let total = Int(plan.duration) * rate
        var block = [Float](repeating: 0, count: rate)
        for blockStart in stride(from: 0, to: total, by: rate) {
            let blockEnd = blockStart + rate
            while next < plan.placements.count, Int(plan.placements[next].start * Double(rate)) < blockEnd {
                let placement = plan.placements[next]
                let level = rules.levelDbfs[placement.className] ?? -40
                let clip = scaled(try EventClipAudio.load(placement.url), toDbfs: level)
                sounding.append((try bandLimit?.apply(to: clip) ?? clip, Int(placement.start * Double(rate))))
                next += 1
            }
            let offset = blockStart % tone.count
            block.withUnsafeMutableBufferPointer { out in
                tone.withUnsafeBufferPointer { source in
                    let first = min(rate, tone.count - offset)
                    out.baseAddress!.update(from: source.baseAddress! + offset, count: first)
                    if first < rate {
                        (out.baseAddress! + first).update(from: source.baseAddress!, count: rate - first)
                    }
                }
            }
            for clip in sounding {
                let from = max(blockStart, clip.start)
                let to = min(blockEnd, clip.start + clip.samples.count)
                guard from < to else { continue }
                for sample in from..<to {
                    block[sample - blockStart] = min(
                        max(block[sample - blockStart] + clip.samples[sample - clip.start], -1), 1)
                }
            }
            sounding.removeAll { $0.start + $0.samples.count <= blockEnd }
            try writer.write(block)
        }
        try writer.close()
    }

    /// Writes the night's accelerometer CSV (seconds from the night's start).
    ///
    /// - Parameters:
    ///   - plan: The night.
    ///   - rules: Noise, breathing motion and movement bursts.
    ///   - url: The CSV file (replaced).
    ///   - seed: The noise's seed.
    /// - Throws: `SleepCycleSdkError.storageFailure` when the file cannot be written.
    package static func writeAccelerometer(
        _ plan: ComposedNightPlan, rules: ComposedNightRules, to url: URL, seed: UInt64
    ) throws {
        guard FileManager.default.createFile(atPath: url.path, contents: nil),
            let handle = try? FileHandle(forWritingTo: url)
        else { throw SleepCycleSdkError.storageFailure("\(url.path): cannot write the accelerometer file") }
        defer { try? handle.close() }
        var random = SplitMix64(seed: seed)
        var text = "timestamp,x,y,z\n"
        var movement = 0
        let count = Int(plan.duration) * accelerometerRate
        for index in 0..<count {
            let t = Double(index) / Double(accelerometerRate)
            while movement < plan.movements.count, plan.movements[movement] + rules.movementSeconds < t {
                movement += 1
            }
            let moving = movement < plan.movements.count && plan.movements[movement] <= t
            let spread = moving ? rules.movementBurstG : rules.restNoiseG
            let breath = moving ? 0 : rules.breathingMotionG * sin(2 * Double.pi * t * rules.breathsPerMinute / 60)
            let x = spread * random.gaussian()
            let y = spread * random.gaussian()
            let z = 1 + breath + spread * random.gaussian()
            text += String(format: "%.1f,%.5f,%.5f,%.5f\n", t, x, y, z)
            if text.utf8.count > 65_536 || index == count - 1 {
                do { try handle.write(contentsOf: Data(text.utf8)) } catch {
                    throw SleepCycleSdkError.storageFailure("\(url.path): cannot write the accelerometer file")
                }
                text = ""
            }
        }
    }

    /// The room tone's loop (s): longer than the breathing analysis's 60-s window, so the loop adds no periodicity
    /// that analysis could take for breathing.
    static let toneSeconds = 61

    /// Low-passed noise (one pole at 0.1, a soft hiss) at an RMS level (dBFS), `seconds` long.
    static func roomTone(seconds: Int, level: Double, seed: UInt64) -> [Float] {
        var random = SplitMix64(seed: seed)
        var lowPassed = 0.0
        var tone = [Float](repeating: 0, count: seconds * AudioBatch.sampleRate)
        for index in tone.indices {
            lowPassed += 0.1 * (random.unit() * 2 - 1 - lowPassed)
            tone[index] = Float(lowPassed)
        }
        return scaled(tone, toDbfs: level)
    }

    /// A loop put through a band limit as the loop it is: the copy of three loops end to end, its middle one.
    static func circularly(_ bandLimit: EventBandLimit, _ loop: [Float]) throws -> [Float] {
        let copy = try bandLimit.apply(to: loop + loop + loop)
        return Array(copy[loop.count..<(2 * loop.count)])
    }

    /// A clip scaled to an RMS level (dBFS).
    static func scaled(_ samples: [Float], toDbfs level: Double) -> [Float] {
        let meanSquare = samples.reduce(0) { $0 + Double($1) * Double($1) } / Double(max(samples.count, 1))
        guard meanSquare > 0 else { return samples }
        let gain = Float(pow(10, level / 20) / meanSquare.squareRoot())
        return samples.map { $0 * gain }
    }
}
