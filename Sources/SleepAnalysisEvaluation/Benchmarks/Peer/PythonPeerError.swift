import Foundation

/// Why the Python peer of the benchmark (`Tools/bench/librosa_peer.py`) gave no measurement. Each message names
/// what to install or pass.
package enum PythonPeerError: Error, Equatable, CustomStringConvertible {
    /// No interpreter of that name on `PATH`, or no executable file at that path.
    case interpreterNotFound(String)
    /// The peer script is not at this path.
    case scriptNotFound(String)
    /// The interpreter lacks a module the peer imports (librosa, numpy or soundfile).
    case missingModule(module: String, interpreter: String)
    /// The interpreter could not be started (the system's reason).
    case cannotStart(interpreter: String, reason: String)
    /// The peer ended with another status; the last lines of its standard error.
    case failed(status: Int32, message: String)
    /// The peer ended well but printed no measurement; what it printed.
    case malformedOutput(String)

    /// The command that installs the peer's packages (pinned in Tools/requirements.txt).
    package static let installCommand =
        "python3 -m venv Tools/.venv && Tools/.venv/bin/pip install -r Tools/requirements.txt"

    /// What went wrong and what to install or pass.
    package var description: String {
        switch self {
        case .interpreterNotFound(let name):
            return "no Python interpreter \(name) (give --python PATH or set SLEEPANALYSIS_PYTHON); install Python "
                + "3.11 or newer, then the peer's packages: \(Self.installCommand)"
        case .scriptNotFound(let path):
            return "the librosa peer script is not at \(path) (give --script PATH)"
        case .missingModule(let module, let interpreter):
            return "\(interpreter) has no module \(module); install the peer's packages: \(Self.installCommand) "
                + "(then --python Tools/.venv/bin/python)"
        case .cannotStart(let interpreter, let reason):
            return "cannot start \(interpreter): \(reason)"
        case .failed(let status, let message):
            return "the librosa peer failed (exit status \(status)): \(message)"
        case .malformedOutput(let output):
            return "the librosa peer printed no measurement: \(output.isEmpty ? "nothing" : output)"
        }
    }
}
