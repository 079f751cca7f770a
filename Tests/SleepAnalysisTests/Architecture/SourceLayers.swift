import Foundation

/// A target's folders in layer order, bottom first: a file may use the types of its own layer and of the layers
/// listed before it, never of one listed after it. A folder not listed (nor inside a listed one) is an error, so a
/// new folder must be given its place.
enum SourceLayers {
    /// The library's folders (`Sources/SleepAnalysis`).
    static let order: [String] = [
        "Support",
        "Time",
        "Crypto",
        "Logging",
        "Networking",
        "DSP",
        "Audio",
        "Audio/Files",
        "Audio/Capture",
        "Audio/FrontEnd",
        "Audio/SoundLevel",
        "Sensors",
        "DataSources",
        "Analysis",
        "Engines/Staging",
        "Engines/Motion",
        "Engines/AudioHealth",
        "Engines/Breathing",
        "Engines/Events",
        "Engines/Stereo",
        "Engines/SmartAlarm",
        "Results",
        "Pipeline",
        "Persistence",
        "Rendering",
        "Telemetry",
        "Licensing",
        "ModelStore",
        "Analyzer",
        "SDK",
    ]

    /// The fleet's folders (`Sources/SleepAnalysisFleet`), all above the whole library.
    static let fleetOrder: [String] = [
        "HTTP",
        "Observability",
        "RemoteInputs",
        "PostgreSQL",
        "SessionStorePostgreSQL",
        "NightQueue",
        "Worker",
        "NightService",
    ]

    /// The layer a file (path relative to its target's folder) belongs to: the longest folder of `order` holding
    /// it.
    static func layer(ofFile path: String, in order: [String] = order) -> String? {
        let folder = (path as NSString).deletingLastPathComponent
        return order.filter { folder == $0 || folder.hasPrefix($0 + "/") }.max { $0.count < $1.count }
    }
}

/// One Swift source file, reduced to what the layering check reads: comments and string literals removed.
struct SourceFile {
    /// Path relative to the library's folder.
    let path: String
    /// The code without comments and string contents.
    let code: String

    init(path: String, text: String) {
        self.path = path
        code = SourceFile.strip(text)
    }

    /// Names declared at the top level of the file (types and type aliases).
    var topLevelTypeNames: [String] {
        let keywords: Set<String> = ["struct", "class", "enum", "protocol", "actor", "typealias"]
        let modifiers: Set<String> = [
            "public", "package", "internal", "private", "fileprivate", "final", "open", "nonisolated", "indirect",
        ]
        var names: [String] = []
        for line in code.split(separator: "\n", omittingEmptySubsequences: true) {
            guard let first = line.first, !first.isWhitespace, first != "}" else { continue }
            var words = line.split(whereSeparator: { $0 == " " || $0 == ":" || $0 == "<" || $0 == "{" })[...]
            while let word = words.first, word.hasPrefix("@") || modifiers.contains(String(word)) {
                words = words.dropFirst()
            }
            guard let keyword = words.first, keywords.contains(String(keyword)), words.count > 1 else { continue }
            names.append(String(words[words.startIndex + 1]))
        }
        return names
    }

    /// Capitalised identifiers the file mentions.
    var mentionedTypeNames: Set<String> {
        var names: Set<String> = []
        var current = ""
        for character in code + " " {
            if character.isLetter || character.isNumber || character == "_" {
                current.append(character)
            } else {
                if let first = current.first, first.isUppercase { names.insert(current) }
                current = ""
            }
        }
        return names
    }

    /// Removes `//` and `/* */` comments and the contents of string literals (single-line and multi-line).
    static func strip(_ text: String) -> String {
        var output = ""
        var index = text.startIndex
        func at(_ prefix: String) -> Bool { text[index...].hasPrefix(prefix) }
        while index < text.endIndex {
            if at("//") {
                while index < text.endIndex, text[index] != "\n" { index = text.index(after: index) }
            } else if at("/*") {
                index = text.index(index, offsetBy: 2)
                while index < text.endIndex, !at("*/") { index = text.index(after: index) }
                if index < text.endIndex { index = text.index(index, offsetBy: 2) }
            } else if at("\"\"\"") {
                index = text.index(index, offsetBy: 3)
                while index < text.endIndex, !at("\"\"\"") { index = text.index(after: index) }
                if index < text.endIndex { index = text.index(index, offsetBy: 3) }
                output += "\"\""
            } else if text[index] == "\"" {
                index = text.index(after: index)
                while index < text.endIndex, text[index] != "\"", text[index] != "\n" {
                    if text[index] == "\\" { index = text.index(after: index) }
                    if index < text.endIndex { index = text.index(after: index) }
                }
                if index < text.endIndex { index = text.index(after: index) }
                output += "\"\""
            } else {
                output.append(text[index])
                index = text.index(after: index)
            }
        }
        return output
    }
}

/// A use of a type from a layer above the file's own.
struct LayerViolation: CustomStringConvertible, Equatable {
    let file: String
    let fileLayer: String
    let typeName: String
    let typeLayer: String

    var description: String { "\(file) (\(fileLayer)) uses \(typeName) from \(typeLayer), a layer above it" }
}

/// Checks a target's files against its layer order (`SourceLayers.order` for the library).
enum LayeringCheck {
    /// The files that belong to no listed layer, and the uses of types from higher layers.
    ///
    /// - Parameters:
    ///   - files: The target's files.
    ///   - order: The target's folders, bottom first.
    static func check(
        _ files: [SourceFile], order: [String] = SourceLayers.order
    ) -> (unplaced: [String], violations: [LayerViolation]) {
        let rank = Dictionary(uniqueKeysWithValues: order.enumerated().map { ($1, $0) })
        var owners: [String: Set<String>] = [:]
        var unplaced: [String] = []
        for file in files {
            guard let layer = SourceLayers.layer(ofFile: file.path, in: order) else {
                unplaced.append(file.path)
                continue
            }
            for name in file.topLevelTypeNames { owners[name, default: []].insert(layer) }
        }
        var violations: [LayerViolation] = []
        for file in files {
            guard let layer = SourceLayers.layer(ofFile: file.path, in: order), let own = rank[layer] else { continue }
            for name in file.mentionedTypeNames.sorted() {
                for owner in owners[name] ?? [] where owner != layer && rank[owner, default: 0] > own {
                    violations.append(
                        LayerViolation(file: file.path, fileLayer: layer, typeName: name, typeLayer: owner))
                }
            }
        }
        return (unplaced.sorted(), violations.sorted { $0.description < $1.description })
    }
}
