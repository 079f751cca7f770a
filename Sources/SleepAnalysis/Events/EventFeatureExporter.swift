import Foundation

/// Exports the event classifier's input — pooled window features, computed by the package's own front end and
/// pooling on the engine's window schedule — so the training tool learns from exactly the numbers the engine
/// sees (`sleepanalysis features`).
///
/// File format, per input: little-endian `Int32` rows (windows), `Int32` columns (features), `Int32` frames in
/// the stream, then rows × columns `Float32`, window after window.
public struct EventFeatureExporter: Sendable {
    /// Creates an exporter.
    public init() {}

    /// Computes the window features of one clip.
    ///
    /// - Parameter samples: Mono 16 kHz samples (already padded as `EventClipAudio` does).
    /// - Returns: The windows' features (one array per window) and the number of frames.
    /// - Throws: `SleepCycleSdkError.invalidConfiguration` if the front end cannot be set up.
    func windowFeatures(of samples: [Float]) throws -> (windows: [[Float]], frames: Int64) {
        let frontEnd = try FrontEnd()
        let schedule = EventWindowSchedule.standard
        let pooling = try EventFeaturePooling(melBandCount: frontEnd.configuration.melBandCount,
                                              maximumFrames: schedule.windowFrames,
                                              logFloor: EventFeatureExporter.logFloor)
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
        let bands = frontEnd.configuration.melBandCount
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
                        pooling.pool(logMel: mel.baseAddress! + Int(start) * bands, dbfs: db.baseAddress! + Int(start),
                                     frames: frames, into: out.baseAddress!)
                    }
                    windows.append(features)
                }
            }
        }
        return (windows, total)
    }

    /// Exports the window features of an audio file to `output`.
    ///
    /// - Parameters:
    ///   - input: A 16 kHz audio file.
    ///   - output: The feature file to write.
    /// - Throws: `SleepCycleSdkError.invalidInput` for unreadable audio, `.storageFailure` when the output
    ///   cannot be written.
    public func export(_ input: URL, to output: URL) throws {
        let (windows, frames) = try windowFeatures(of: try EventClipAudio.load(input))
        var data = Data()
        func append(_ value: Int32) { withUnsafeBytes(of: value.littleEndian) { data.append(contentsOf: $0) } }
        append(Int32(windows.count))
        append(Int32(windows.first?.count ?? 0))
        append(Int32(frames))
        for window in windows {
            for value in window { withUnsafeBytes(of: value.bitPattern.littleEndian) { data.append(contentsOf: $0) } }
        }
        do {
            try data.write(to: output)
        } catch {
            throw SleepCycleSdkError.storageFailure("\(output.path): \(error.localizedDescription)")
        }
    }

    /// The log floor the shipped pooling uses (a model declares the same value in its header).
    static let logFloor: Float = -18
}
