import Foundation
import SleepAnalysis

/// A labelled clip set laid out like `shared/data/audio`: a tab-separated `MANIFEST.tsv` with at least the
/// columns `class` and `file` (relative to the set's root). A class that is an `EventType` name is an event;
/// any other class (`breathing`, `other`, …) is a negative: the clip should yield no event.
package struct EventClipManifest: Sendable {
    /// One clip.
    package struct Entry: Sendable, Equatable {
        /// The clip's audio file.
        package var url: URL
        /// The class as written in the manifest.
        package var className: String
        /// The event type, or nil for a negative.
        package var type: EventType? { EventType(rawValue: className) }
    }

    /// The clips, in manifest order.
    package var entries: [Entry]

    /// Reads a manifest.
    ///
    /// - Parameters:
    ///   - manifest: The TSV file.
    ///   - root: The folder the `file` column is relative to.
    /// - Throws: `SleepCycleSdkError.invalidInput` when the file cannot be read, lacks the `class` or `file`
    ///   column, or has a row with too few fields.
    package init(manifest: URL, root: URL) throws {
        let text: String
        do {
            text = try String(contentsOf: manifest, encoding: .utf8)
        } catch {
            throw SleepCycleSdkError.invalidInput("\(manifest.path): cannot read the manifest")
        }
        var lines = text.split(whereSeparator: \.isNewline).map(String.init)
        guard !lines.isEmpty else { throw SleepCycleSdkError.invalidInput("\(manifest.path): empty manifest") }
        let columns = lines.removeFirst().split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
        guard let classColumn = columns.firstIndex(of: "class"), let fileColumn = columns.firstIndex(of: "file") else {
            throw SleepCycleSdkError.invalidInput("\(manifest.path): the header needs 'class' and 'file' columns")
        }
        entries = try lines.enumerated().compactMap { offset, line in
            if line.trimmingCharacters(in: .whitespaces).isEmpty { return nil }
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard fields.count > max(classColumn, fileColumn) else {
                throw SleepCycleSdkError.invalidInput("\(manifest.path):\(offset + 2): too few fields")
            }
            return Entry(url: root.appendingPathComponent(fields[fileColumn]), className: fields[classColumn])
        }
    }
}
