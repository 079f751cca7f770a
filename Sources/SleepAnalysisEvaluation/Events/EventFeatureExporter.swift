import Foundation
import SleepAnalysis

/// Exports the event classifier's input — pooled window features, computed by the package's own front end and
/// pooling on the engine's window schedule — so the training tool learns from exactly the numbers the engine
/// sees (`sleepanalysis features events`).
///
/// File format, per input: little-endian `Int32` rows (windows), `Int32` columns (features), `Int32` frames in
/// the stream, then rows × columns `Float32`, window after window.
package struct EventFeatureExporter: Sendable {
    /// Creates an exporter.
    package init() {}

    /// Runs the package's front end over one clip.
    ///
    /// - Parameter samples: Mono 16 kHz samples.
    /// - Returns: Frame-major natural-log mel energies, one level (dBFS) per frame, and the mel bands per frame.
    /// - Throws: `SleepCycleSdkError.invalidConfiguration` if the front end cannot be set up.
    func frames(of samples: [Float]) throws -> (logMel: [Float], dbfs: [Float], bands: Int) {
        let frontEnd = try FrontEnd()
        var logMel: [Float] = []
        var dbfs: [Float] = []
        var offset = 0
        while offset < samples.count {
            let end = min(samples.count, offset + AudioBatch.standardLength)
            let block = frontEnd.process(Array(samples[offset..<end]))
            logMel.append(contentsOf: block.logMel)
            dbfs.append(contentsOf: block.dbfs)
            offset = end
        }
        return (logMel, dbfs, frontEnd.configuration.melBandCount)
    }

    /// Pools the frames of one clip into the classifier's window features on the engine's window schedule.
    private func windowFeatures(logMel: [Float], dbfs: [Float], bands: Int) throws -> [[Float]] {
        let schedule = EventWindowSchedule.standard
        let pooling = try EventFeaturePooling(
            melBandCount: bands, maximumFrames: schedule.windowFrames,
            logFloor: EventFeatureExporter.logFloor)
        let total = Int64(dbfs.count)
        var starts: [(Int64, Int)] = []
        var last: Int64?
        for count in stride(from: Int64(1), through: total, by: 1) {
            if let start = schedule.windowEnding(atFrameCount: count) {
                starts.append((start, schedule.windowFrames))
                last = start
            }
        }
        if let final = schedule.finalWindow(totalFrames: total, lastStart: last) { starts.append(final) }
        var windows: [[Float]] = []
        var features = [Float](repeating: 0, count: pooling.featureCount)
        logMel.withUnsafeBufferPointer { mel in
            dbfs.withUnsafeBufferPointer { db in
                for (start, frames) in starts {
                    features.withUnsafeMutableBufferPointer { out in
                        pooling.pool(
                            logMel: mel.baseAddress! + Int(start) * bands, dbfs: db.baseAddress! + Int(start),
                            frames: frames, firstFrame: start, into: out.baseAddress!)
                    }
                    windows.append(features)
                }
            }
        }
        return windows
    }

    /// Exports the window features of an audio file to `output`.
    ///
    /// With `logMelOutput`, the front end's frames are written there too, for the network's spectrogram input:
    /// little-endian `Int32` frames, `Int32` mel bands, then frames × bands `Float32` natural-log mel energies.
    ///
    /// - Parameters:
    ///   - input: A 16 kHz audio file.
    ///   - output: The feature file to write.
    ///   - logMelOutput: Where to write the frames, if wanted.
    ///   - bandLimit: Export a band-limited copy of the audio instead of the audio as recorded.
    /// - Throws: `SleepCycleSdkError.invalidInput` for unreadable audio, `.storageFailure` when the output
    ///   cannot be written.
    package func export(_ input: URL, to output: URL, logMelOutput: URL? = nil, bandLimit: EventBandLimit? = nil) throws
    {
        var samples = try EventClipAudio.load(input)
        if let bandLimit { samples = try bandLimit.apply(to: samples) }
        let (logMel, dbfs, bands) = try frames(of: samples)
        let windows = try windowFeatures(logMel: logMel, dbfs: dbfs, bands: bands)
        let frames = dbfs.count
        if let logMelOutput {
            var melData = Data(capacity: 8 + logMel.count * 4)
            for header in [Int32(frames), Int32(bands)] {
                withUnsafeBytes(of: header.littleEndian) { melData.append(contentsOf: $0) }
            }
            for value in logMel {
                withUnsafeBytes(of: value.bitPattern.littleEndian) { melData.append(contentsOf: $0) }
            }
            try Self.write(melData, to: logMelOutput)
        }
        var data = Data()
        func append(_ value: Int32) { withUnsafeBytes(of: value.littleEndian) { data.append(contentsOf: $0) } }
        append(Int32(windows.count))
        append(Int32(windows.first?.count ?? 0))
        append(Int32(frames))
        for window in windows {
            for value in window { withUnsafeBytes(of: value.bitPattern.littleEndian) { data.append(contentsOf: $0) } }
        }
        try Self.write(data, to: output)
    }

    private static func write(_ data: Data, to output: URL) throws {
        do {
            try data.write(to: output)
        } catch {
            throw SleepCycleSdkError.storageFailure("\(output.path): \(error.localizedDescription)")
        }
    }

    /// The log floor the shipped pooling uses (a model declares the same value in its header).
    static let logFloor: Float = -18
}
