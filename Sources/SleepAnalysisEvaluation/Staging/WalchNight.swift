import Foundation
import SleepAnalysis

/// One subject's night from a directory laid out like PhysioNet sleep-accel as mirrored in `shared/data`:
/// `labels/<id>_labeled_sleep.txt` (`t_sec stage`), `heart_rate/<id>_heartrate.txt` (`t_sec,bpm`) and
/// `features_walch_pipeline/<id>_{count_feature,time_feature,psg_labels}.out` (one row per valid epoch).
///
/// The feature rows carry no timestamps: their times are recovered by finding the only offset at which the
/// rows' PSG labels match `labels/` exactly (times are `offset + 3600 × time_feature`). The night fed to the
/// stager runs from the first to the last valid row; epochs in between without a row get no activity count.
/// Heart rate comes from the raw series (readings inside each epoch). Only valid rows are scored.
package struct WalchNight: Sendable {
    /// The subject identifier (the file-name prefix).
    package var subjectId: String
    /// The session start: PSG time 0, mapped to `WalchNight.referenceDate`.
    package var sessionStart: Date
    /// Contiguous epochs from the first to the last valid row.
    package var epochs: [EpochFeatures]
    /// The PSG stage of each epoch (0 wake, 1 N1, 2 N2, 3 N3, 4 N4, 5 REM), nil where not scored.
    package var labels: [Int?]

    /// The date PSG time 0 is mapped to (the data set carries no wall-clock time).
    package static let referenceDate = Date(timeIntervalSince1970: 1_500_000_000)

    /// The subject identifiers under `root`, sorted (from `labels/*_labeled_sleep.txt`).
    ///
    /// - Parameter root: the data set directory.
    /// - Returns: the identifiers.
    /// - Throws: `SleepCycleSdkError.invalidInput` when `labels/` cannot be listed or is empty.
    package static func subjectIds(root: URL) throws -> [String] {
        let labels = root.appendingPathComponent("labels")
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: labels.path)
        } catch {
            throw SleepCycleSdkError.invalidInput("\(labels.path): cannot list the labels directory")
        }
        let ids = names.compactMap { name -> String? in
            name.hasSuffix("_labeled_sleep.txt") ? String(name.dropLast("_labeled_sleep.txt".count)) : nil
        }.sorted()
        guard !ids.isEmpty else { throw SleepCycleSdkError.invalidInput("\(labels.path): no *_labeled_sleep.txt") }
        return ids
    }

    /// Loads one subject.
    ///
    /// - Parameters:
    ///   - subjectId: the identifier.
    ///   - root: the data set directory.
    /// - Throws: `SleepCycleSdkError.invalidInput` for a missing or malformed file, or rows that match no offset.
    package init(subjectId: String, root: URL) throws {
        self.subjectId = subjectId
        sessionStart = Self.referenceDate
        let featureDirectory = root.appendingPathComponent("features_walch_pipeline")
        let scored = try Self.readColumns(root.appendingPathComponent("labels/\(subjectId)_labeled_sleep.txt"))
        let counts = try Self.readColumns(featureDirectory.appendingPathComponent("\(subjectId)_count_feature.out"))
        let hours = try Self.readColumns(featureDirectory.appendingPathComponent("\(subjectId)_time_feature.out"))
        let rowLabels = try Self.readColumns(featureDirectory.appendingPathComponent("\(subjectId)_psg_labels.out"))
        guard counts.count == hours.count, counts.count == rowLabels.count, !counts.isEmpty else {
            throw SleepCycleSdkError.invalidInput(
                "\(featureDirectory.path): feature files of \(subjectId) differ in length")
        }
        var labelByEpoch: [Int: Int] = [:]
        for row in scored where row.count >= 2 { labelByEpoch[Int((row[0] / 30).rounded())] = Int(row[1]) }
        let relative = hours.map { Int(($0[0] * 3600 / 30).rounded()) }
        let stages = rowLabels.map { Int($0[0].rounded()) }
        guard let offset = Self.alignmentOffset(relative: relative, stages: stages, labels: labelByEpoch) else {
            throw SleepCycleSdkError.invalidInput("\(subjectId): feature rows match no offset of the PSG labels")
        }
        let rowEpochs = relative.map { $0 + offset }
        let first = rowEpochs.min() ?? 0
        let last = rowEpochs.max() ?? 0
        var activity = [Double?](repeating: nil, count: last - first + 1)
        var epochLabels = [Int?](repeating: nil, count: last - first + 1)
        for (row, epoch) in rowEpochs.enumerated() {
            activity[epoch - first] = counts[row][0]
            epochLabels[epoch - first] = stages[row]
        }
        let heartRate = try Self.heartRateByEpoch(
            root.appendingPathComponent("heart_rate/\(subjectId)_heartrate.txt"), epochs: first...last)
        epochs = (first...last).map { (epoch: Int) -> EpochFeatures in
            let start = Self.referenceDate.addingTimeInterval(Double(epoch) * EpochFeatures.duration)
            let stats = HeartRateEpochStats(bpm: heartRate[epoch - first])
            return EpochFeatures(start: start, activityCount: activity[epoch - first], heartRate: stats)
        }
        labels = epochLabels
    }

    /// Maps a PSG stage code to an SDK stage (0 awake, 1–2 light, 3–4 deep, 5 REM), nil for anything else.
    ///
    /// - Parameter code: the PSG code.
    /// - Returns: the stage, or nil.
    package static func stage(fromPSG code: Int) -> SleepStage? {
        switch code {
        case 0: .awake
        case 1, 2: .light
        case 3, 4: .deep
        case 5: .rem
        default: nil
        }
    }

    // MARK: - Parsing

    private static func readColumns(_ url: URL) throws -> [[Double]] {
        guard let text = try? String(contentsOf: url, encoding: .utf8) else {
            throw SleepCycleSdkError.invalidInput("\(url.path): cannot read the file")
        }
        var rows: [[Double]] = []
        for (number, line) in text.split(whereSeparator: \.isNewline).enumerated() {
            let fields = line.split(whereSeparator: { $0 == " " || $0 == "," || $0 == "\t" })
            guard !fields.isEmpty else { continue }
            let values = fields.compactMap { Double($0) }
            guard values.count == fields.count else {
                throw SleepCycleSdkError.invalidInput("\(url.path):\(number + 1): not a number")
            }
            rows.append(values)
        }
        return rows
    }

    /// The offset (in epochs) at which every row's stage equals the PSG label; the smallest if several.
    private static func alignmentOffset(relative: [Int], stages: [Int], labels: [Int: Int]) -> Int? {
        guard let firstLabel = labels.keys.min(), let lastLabel = labels.keys.max(), let span = relative.max() else {
            return nil
        }
        for offset in (firstLabel - span)...lastLabel {
            var matches = true
            for (row, epoch) in relative.enumerated() where labels[epoch + offset] != stages[row] {
                matches = false
                break
            }
            if matches { return offset }
        }
        return nil
    }

    private static func heartRateByEpoch(_ url: URL, epochs: ClosedRange<Int>) throws -> [[Double]] {
        var byEpoch = [[Double]](repeating: [], count: epochs.count)
        for row in try readColumns(url) where row.count >= 2 {
            let epoch = Int((row[0] / 30).rounded(.down))
            if epochs.contains(epoch) { byEpoch[epoch - epochs.lowerBound].append(row[1]) }
        }
        return byEpoch
    }
}
