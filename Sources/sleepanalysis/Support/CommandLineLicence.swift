import CommandLineKit
import Foundation
import SleepAnalysis

/// The licence the command-line tool initializes the SDK with.
///
/// `--api-key KEY` or `$SLEEPANALYSIS_API_KEY` when given (verified against the built-in issuers,
/// `$SLEEPANALYSIS_TRUSTED_KEYS` and nothing else). Without one, the tool analyses the operator's own files under
/// a local evaluation licence with every feature, signed by a key pair made for this run and trusted for this
/// run only: the tool runs on the operator's machine, so it has nothing to protect; embedding applications
/// always need a real key.
enum CommandLineLicence {
    /// The option name.
    static let option = "api-key"
    /// The environment variable.
    static let variable = "SLEEPANALYSIS_API_KEY"

    /// The key to use and the extra issuer keys to trust.
    ///
    /// - Throws: `SleepCycleSdkError` when the evaluation key cannot be made.
    static func resolve(_ parsed: ParsedArguments) throws -> (apiKey: String, trustedKeys: [String]) {
        if let key = parsed.option(option) ?? ProcessInfo.processInfo.environment[variable], !key.isEmpty {
            return (key, [])
        }
        let pair = try LicenseIssuer.generateKeyPair()
        let key = try LicenseIssuer.issue(
            features: .all, expires: Date().addingTimeInterval(86_400), subject: "sleepanalysis command-line tool",
            privateKey: pair.privateKey)
        return (key, [pair.publicKeyBase64])
    }

    /// Initializes the SDK for a command.
    ///
    /// - Parameters:
    ///   - parsed: The command line (`--api-key`, `--storage`).
    ///   - logLevel: The SDK's log level.
    /// - Returns: The licensed features.
    static func initialize(
        _ parsed: ParsedArguments, logLevel: LogLevel = .warning
    ) async throws
        -> SleepAnalysisFeatures
    {
        let licence = try resolve(parsed)
        return try await SleepCycleSdk.initialize(
            logLevel: logLevel, apiKey: licence.apiKey,
            storageDirectory: parsed.option("storage").map { URL(fileURLWithPath: $0, isDirectory: true) },
            trustedIssuerKeys: licence.trustedKeys)
    }
}
