import CommandLineKit
import Foundation
import SleepAnalysis

/// `sleepanalysis models publish --out DIR [--from DIR] [--version V]`: builds a model store for slim mode (the
/// model files and a `manifest.json` with name, version, file, size and SHA-256), to serve over HTTP(S) or use as a
/// `file://` store. Prints one line per model: name, version, file, size, SHA-256.
enum ModelsCommand: Command {
    static let name = "models"
    static let summary = "build a model store (manifest and files) for slim-mode downloads"
    /// What it accepts: its specification.
    static var syntax: CommandSyntax { .options(specification) }
    static let specification = ArgumentSpecification(
        options: ["out", "from", "version"], shortNames: ["o": "out"], positionals: ["publish"],
        usage: """
            usage: sleepanalysis models publish --out DIR [--from DIR] [--version V]

              -o, --out DIR     the store folder to write (manifest.json and <name>-<version>.<ext> files)
                  --from DIR    where the model files are (default: the models bundled with the library)
                  --version V   the version in the manifest and file names (default: the library version)

            """)

    static func run(_ arguments: [String]) async throws {
        guard let parsed = try ArgumentParser.parseUnlessHelp(arguments, specification) else { return }
        guard parsed.positionals[0] == "publish" else {
            throw CommandLineError.usage("unknown action '\(parsed.positionals[0])'", usage: specification.usage)
        }
        guard let out = parsed.option("out") else {
            throw CommandLineError.usage("--out DIR is required", usage: specification.usage)
        }
        let entries = try ModelStorePublisher.publish(
            from: parsed.option("from").map { URL(fileURLWithPath: $0, isDirectory: true) },
            to: URL(fileURLWithPath: out, isDirectory: true),
            version: parsed.option("version") ?? SleepAnalysisVersion.current)
        for entry in entries {
            try StandardOutput.print("\(entry.name)\t\(entry.version)\t\(entry.file)\t\(entry.size)\t\(entry.sha256)")
        }
    }
}
