import Foundation

/// Sets process environment variables for one test and puts the old values back afterwards.
///
/// The SDK reads `XDG_STATE_HOME`, `XDG_DATA_HOME` and `SLEEPANALYSIS_TRUSTED_KEYS` at `initialize`, so samples
/// that call `initialize` without `storageDirectory:` or `trustedIssuerKeys:` can run as written.
final class ScopedEnvironment {
    private var saved: [String: String?] = [:]

    /// Sets `name` to `value`, remembering the value it had first.
    func set(_ name: String, _ value: String) {
        if saved[name] == nil {
            saved[name] = .some(ProcessInfo.processInfo.environment[name])
        }
        setenv(name, value, 1)
    }

    /// Points the XDG state and data directories into `directory` and trusts `issuerKey`.
    func isolateSDK(in directory: URL, trusting issuerKey: String) {
        set("XDG_STATE_HOME", directory.appendingPathComponent("xdg-state").path)
        set("XDG_DATA_HOME", directory.appendingPathComponent("xdg-data").path)
        set("SLEEPANALYSIS_TRUSTED_KEYS", issuerKey)
    }

    /// Puts every variable back as it was.
    func restore() {
        for (name, value) in saved {
            if let value { setenv(name, value, 1) } else { unsetenv(name) }
        }
        saved = [:]
    }
}
