import Foundation
import TestSupport
import XCTest

/// Validates JSON documents against the repository's `Schemas/` with a real validator: `Tools/json/validate.py`
/// under Debian's Python and its python3-jsonschema (installed by `Tools/install-dependencies.sh`).
enum JSONSchemaValidator {
    /// The validator's complaints about `document`, one per line; empty when it is valid.
    ///
    /// - Parameters:
    ///   - document: The JSON text.
    ///   - schema: The schema's name, `Schemas/NAME.schema.json` without its suffix.
    /// - Throws: When the validator cannot run (no Python or jsonschema: the failure says how to install them).
    static func errors(in document: String, schema: String) throws -> [String] {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("sa-json-\(UUID().uuidString).json")
        try Data(document.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let (status, output) = try run([schema, file.path])
        if status == 2 || output.contains("ModuleNotFoundError") {
            throw ValidatorUnavailable(output: output)
        }
        return output.split(separator: "\n").map(String.init)
    }

    /// Runs the validator with `arguments`.
    static func run(_ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments =
            [FixturePaths.repositoryRoot.appendingPathComponent("Tools/json/validate.py").path] + arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    /// The validator could not run.
    struct ValidatorUnavailable: Error, CustomStringConvertible {
        var output: String
        var description: String {
            "Tools/json/validate.py could not run (Tools/install-dependencies.sh installs python3-jsonschema): \(output)"
        }
    }
}
