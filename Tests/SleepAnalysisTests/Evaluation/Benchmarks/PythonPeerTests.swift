import Foundation
import SleepAnalysisEvaluation
import XCTest

/// The librosa peer of `sleepanalysis-bench peer` runs as a child process with a real Python. CI installs no
/// librosa (it would add the heavy numba, scikit-learn and SciPy wheels to every run), so these tests run the real
/// peer script in an interpreter without it (its error path) and small real Python scripts that print what the
/// peer prints (its protocol); the measurement itself is checked by hand (Performance.md).
final class PythonPeerTests: XCTestCase {
    private var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("python-peer-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: directory)
    }

    /// Python 3 from PATH, as the benchmark finds it (every machine of the project has one).
    private func python() throws -> URL {
        let path = (ProcessInfo.processInfo.environment["PATH"] ?? "") + ":/usr/local/bin:/usr/bin"
        return try PythonPeer.interpreter("python3", search: path)
    }

    /// A peer script of `source` in the test's directory.
    private func script(_ source: String) throws -> URL {
        let url = directory.appendingPathComponent("peer.py")
        try Data(source.utf8).write(to: url)
        return url
    }

    private func audioFile() throws -> URL {
        let url = directory.appendingPathComponent("night.wav")
        try SleepAnalysisEvaluation.SyntheticNight.write(to: url, duration: 1, sampleRate: 16_000, format: .wav)
        return url
    }

    func test_missingInterpreter_isATypedErrorNamingTheInstallCommand() {
        // Given no python3 on the search path, nor at a given path
        for (name, search) in [("python3", "/nonexistent:/also-not-here"), ("/nonexistent/bin/python", nil)] {
            // When the benchmark looks for it
            XCTAssertThrowsError(try PythonPeer.interpreter(name, search: search)) { error in
                // Then it is told so, with what to install
                XCTAssertEqual(error as? PythonPeerError, .interpreterNotFound(name))
                XCTAssertTrue("\(error)".contains(PythonPeerError.installCommand), "\(error)")
            }
        }
    }

    func test_realPeerScript_inAPythonWithoutLibrosa_failsAtOnceNamingTheModuleAndTheInstallCommand() throws {
        // Given a fresh virtual environment (no site packages, so no librosa) and the repository's peer script
        let environment = directory.appendingPathComponent("venv")
        let make = Process()
        make.executableURL = try python()
        make.arguments = ["-m", "venv", "--without-pip", environment.path]
        try make.run()
        make.waitUntilExit()
        XCTAssertEqual(make.terminationStatus, 0)
        let peer = try PythonPeer(interpreter: environment.appendingPathComponent("bin/python"))
        // When it is run on a file
        let start = Date()
        XCTAssertThrowsError(try peer.measure(file: try audioFile(), stereo: false)) { error in
            // Then the error names librosa, the interpreter and the install command
            XCTAssertEqual(
                error as? PythonPeerError,
                .missingModule(module: "librosa", interpreter: environment.appendingPathComponent("bin/python").path))
            XCTAssertTrue("\(error)".contains(PythonPeerError.installCommand), "\(error)")
        }
        XCTAssertLessThan(Date().timeIntervalSince(start), 20)
    }

    func test_peersJSON_isReadWithTheFileAndStereoPassed_andComparedWithThePipeline() throws {
        // Given a Python script that prints what the peer prints, for the file and the channels it was given
        let file = try audioFile()
        let peer = try PythonPeer(
            interpreter: try python(),
            script: try script(
                """
                import json, os, sys
                print("a line of chatter first")
                print(json.dumps({"peer": "librosa", "librosaVersion": "0.11.0", "cpuSeconds": 13.0,
                                  "audioSeconds": os.path.getsize(sys.argv[1]) / 32000.0, "sampleRate": 16000,
                                  "channels": 2 if "--stereo" in sys.argv else 1, "frames": 100}))
                """))
        // When it is measured on a one-second file, in stereo
        let measurement = try peer.measure(file: file, stereo: true)
        // Then its line is read (the WAV header adds 44 bytes to the second)
        XCTAssertEqual(measurement.cpuSeconds, 13)
        XCTAssertEqual(measurement.channels, 2)
        XCTAssertEqual(measurement.audioSeconds, 1, accuracy: 0.01)
        XCTAssertEqual(measurement.librosaVersion, "0.11.0")
        // And compared with a pipeline that took 2 s of CPU for the same second
        let comparison = try PeerComparison(audioSeconds: 1, pipelineCPUSeconds: 2, peer: measurement)
        XCTAssertEqual(comparison.ratio, 6.5)
        XCTAssertEqual(comparison.pipelineRealTimePerCore, 0.5)
        XCTAssertEqual(comparison.peerRealTimePerCore, measurement.audioSeconds / 13)
        // But not with a pipeline that analysed another length of audio
        XCTAssertThrowsError(try PeerComparison(audioSeconds: 3600, pipelineCPUSeconds: 2, peer: measurement)) {
            XCTAssertEqual(
                $0 as? PeerComparisonError,
                .differentAudio(pipelineSeconds: 3600, peerSeconds: measurement.audioSeconds))
        }
    }

    func test_peerThatFailsOrPrintsNothing_isATypedErrorWithWhatItSaid() throws {
        let python = try python()
        let file = try audioFile()
        // Given a peer that fails with a message, one that prints nothing, one that waits for input
        let cases: [(String, PythonPeerError)] = [
            (
                "import sys\nsys.stderr.write('Traceback\\nValueError: bad file\\n')\nsys.exit(1)\n",
                .failed(status: 1, message: "Traceback\nValueError: bad file")
            ),
            ("pass\n", .malformedOutput("")),
            ("import sys\nprint(sys.stdin.read() + '{\"cpuSeconds\": 1}')\n", .malformedOutput("{\"cpuSeconds\": 1}")),
        ]
        for (source, expected) in cases {
            let peer = try PythonPeer(interpreter: python, script: try script(source))
            // When it is measured, Then the error says what happened (and an empty input ends the wait)
            XCTAssertThrowsError(try peer.measure(file: file, stereo: false)) {
                XCTAssertEqual($0 as? PythonPeerError, expected)
            }
        }
        XCTAssertEqual(
            PythonPeerError.malformedOutput("").description, "the librosa peer printed no measurement: nothing")
    }
}
