import Foundation

/// The librosa peer of the benchmark: `Tools/bench/librosa_peer.py` (the front end as a Python user would write it
/// with librosa) run on a file as a child process, with the CPU time it reports. The package never needs Python;
/// only this benchmark runs it.
package struct PythonPeer: Sendable {
    /// What the peer reports (its JSON line).
    package struct Measurement: Decodable, Equatable, Sendable {
        /// The peer's name (`librosa`).
        package var peer: String
        /// The librosa version it ran.
        package var librosaVersion: String
        /// Its CPU time (`time.process_time()`) from after the imports to the end, file reading included.
        package var cpuSeconds: Double
        /// Seconds of audio it read.
        package var audioSeconds: Double
        /// The file's sample rate (Hz).
        package var sampleRate: Int
        /// The signals it analysed: 1 (the mix to mono), or each channel with `stereo`.
        package var channels: Int
        /// STFT frames over all the signals.
        package var frames: Int
    }

    /// The Python interpreter.
    package let interpreter: URL
    /// The peer script.
    package let script: URL

    /// Checks that both files exist.
    ///
    /// - Throws: `.interpreterNotFound` when `interpreter` is no executable file, `.scriptNotFound`.
    package init(interpreter: URL, script: URL = PythonPeer.repositoryScript) throws(PythonPeerError) {
        guard FileManager.default.isExecutableFile(atPath: interpreter.path) else {
            throw .interpreterNotFound(interpreter.path)
        }
        guard FileManager.default.fileExists(atPath: script.path) else { throw .scriptNotFound(script.path) }
        self.interpreter = interpreter
        self.script = script
    }

    /// `Tools/bench/librosa_peer.py` of the repository this was built from.
    package static let repositoryScript = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Tools/bench/librosa_peer.py")

    /// The interpreter a name or path means: a path (with a `/`) as it is, a bare name looked up on `search`
    /// (a `PATH`-style list of directories).
    ///
    /// - Throws: `.interpreterNotFound` when no executable file answers.
    package static func interpreter(_ nameOrPath: String, search: String?) throws(PythonPeerError) -> URL {
        if nameOrPath.contains("/") {
            guard FileManager.default.isExecutableFile(atPath: nameOrPath) else {
                throw .interpreterNotFound(nameOrPath)
            }
            return URL(fileURLWithPath: nameOrPath)
        }
        for directory in (search ?? "").split(separator: ":") where !nameOrPath.isEmpty {
            let candidate = URL(fileURLWithPath: String(directory)).appendingPathComponent(nameOrPath)
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        throw .interpreterNotFound(nameOrPath)
    }

    /// Runs the peer on `file` and waits for it. Its standard input is empty and its output goes to temporary files,
    /// so it can neither wait for input nor block on a full pipe.
    ///
    /// - Parameters:
    ///   - file: The audio file.
    ///   - stereo: Analyse each channel (as the pipeline's two sleepers) rather than the mix to mono.
    /// - Returns: What the peer measured.
    /// - Throws: `PythonPeerError`: `.missingModule` without librosa, `.failed`, `.malformedOutput`, `.cannotStart`.
    package func measure(file: URL, stereo: Bool) throws(PythonPeerError) -> Measurement {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("peer-\(UUID().uuidString)")
        let outputURL = scratch.appendingPathExtension("out")
        let errorURL = scratch.appendingPathExtension("err")
        defer {
            try? FileManager.default.removeItem(at: outputURL)
            try? FileManager.default.removeItem(at: errorURL)
        }
        let process = Process()
        process.executableURL = interpreter
        process.arguments = [script.path, file.path] + (stereo ? ["--stereo"] : [])
        process.standardInput = FileHandle.nullDevice
        do {
            _ = FileManager.default.createFile(atPath: outputURL.path, contents: nil)
            _ = FileManager.default.createFile(atPath: errorURL.path, contents: nil)
            let output = try FileHandle(forWritingTo: outputURL)
            let errors = try FileHandle(forWritingTo: errorURL)
            defer {
                try? output.close()
                try? errors.close()
            }
            process.standardOutput = output
            process.standardError = errors
            try process.run()
            process.waitUntilExit()
        } catch {
            throw .cannotStart(interpreter: interpreter.path, reason: error.localizedDescription)
        }
        let output = (try? Data(contentsOf: outputURL)) ?? Data()
        let errors = (try? Data(contentsOf: errorURL)) ?? Data()
        return try Self.measurement(
            status: process.terminationStatus, output: output, errors: errors, interpreter: interpreter.path)
    }

    /// The exit status the peer gives when a module is missing (with `{"missingModule": NAME}` on its output).
    static let missingModuleStatus: Int32 = 3

    /// Reads the peer's measurement from its exit status and output.
    static func measurement(
        status: Int32, output: Data, errors: Data, interpreter: String
    ) throws(PythonPeerError) -> Measurement {
        let printed = String(decoding: output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        if status == missingModuleStatus,
            let object = try? JSONSerialization.jsonObject(with: Data(printed.utf8)) as? [String: Any],
            let module = object["missingModule"] as? String
        {
            throw .missingModule(module: module, interpreter: interpreter)
        }
        guard status == 0 else {
            let lines = String(decoding: errors, as: UTF8.self).split(separator: "\n").suffix(5)
            throw .failed(status: status, message: lines.joined(separator: "\n"))
        }
        let lastLine = printed.split(separator: "\n").last.map(String.init) ?? ""
        guard let measurement = try? JSONDecoder().decode(Measurement.self, from: Data(lastLine.utf8)),
            measurement.cpuSeconds > 0, measurement.audioSeconds > 0
        else { throw .malformedOutput(String(printed.prefix(500))) }
        return measurement
    }
}
