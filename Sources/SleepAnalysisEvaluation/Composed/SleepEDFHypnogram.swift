import Foundation
import SleepAnalysis

/// An expert hypnogram of one Sleep-EDF cassette night, as the `epoch,onset_s,stage_rk` CSVs of
/// `shared/data/staging/sleepedf_hypnograms/epochs` (R&K: `W`, `1`–`4`, `R`; anything else is unscored).
/// Stages 1 and 2 are light sleep, 3 and 4 deep, as in the staging model card.
package struct SleepEDFHypnogram: Sendable {
    /// The night's name (the file name without `.csv`).
    package var name: String
    /// One stage per 30-second epoch from the start of the recording; nil where the epoch is unscored.
    package var stages: [SleepStage?]

    /// Reads a hypnogram CSV.
    ///
    /// - Parameter url: The CSV file.
    /// - Throws: `SleepCycleSdkError.invalidInput` when it cannot be read or has no `stage_rk` column.
    package init(url: URL) throws {
        let text: String
        do {
            text = try String(contentsOf: url, encoding: .utf8)
        } catch {
            throw SleepCycleSdkError.invalidInput("\(url.path): cannot read the hypnogram")
        }
        var lines = text.split(whereSeparator: \.isNewline)
        guard !lines.isEmpty, let column = lines.removeFirst().split(separator: ",").firstIndex(of: "stage_rk") else {
            throw SleepCycleSdkError.invalidInput("\(url.path): no stage_rk column")
        }
        name = url.deletingPathExtension().lastPathComponent
        stages = lines.map { line in
            let fields = line.split(separator: ",", omittingEmptySubsequences: false)
            return fields.count > column ? Self.stage(rk: String(fields[column])) : nil
        }
    }

    /// The night's CSVs in a folder, sorted by name.
    ///
    /// - Parameter directory: The `epochs` folder.
    /// - Throws: `SleepCycleSdkError.invalidInput` when the folder cannot be listed or holds no CSV.
    package static func files(in directory: URL) throws -> [URL] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory.path) else {
            throw SleepCycleSdkError.invalidInput("\(directory.path): cannot list the hypnograms")
        }
        let files = names.filter { $0.hasSuffix(".csv") }.sorted().map { directory.appendingPathComponent($0) }
        guard !files.isEmpty else { throw SleepCycleSdkError.invalidInput("\(directory.path): no hypnogram CSV") }
        return files
    }

    /// The stage of an R&K label, nil for an unscored or movement epoch.
    static func stage(rk: String) -> SleepStage? {
        switch rk.trimmingCharacters(in: .whitespaces) {
        case "W": .awake
        case "1", "2": .light
        case "3", "4": .deep
        case "R": .rem
        default: nil
        }
    }

    /// The stretch a composed night uses: from `leadMinutes` before sleep onset (the first epoch of any sleep
    /// stage; the cassette recordings run for most of a day, mostly awake) for `hours`, cut at the record's end.
    ///
    /// - Parameters:
    ///   - hours: The length of the stretch.
    ///   - leadMinutes: Minutes kept before sleep onset.
    /// - Returns: The stages of the stretch, or nil when the night has no sleep.
    package func excerpt(hours: Double, leadMinutes: Double = 30) -> [SleepStage?]? {
        guard let onset = stages.firstIndex(where: { $0 != nil && $0 != .awake }) else { return nil }
        let start = max(0, onset - Int(leadMinutes * 2))
        let end = min(stages.count, start + Int(hours * 120))
        return Array(stages[start..<end])
    }
}
