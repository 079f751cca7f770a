import CommandLineKit
import Foundation
import SleepAnalysis
import SleepAnalysisFleet

/// `--input-root DIR[:DIR…]`, `--input-host HOST[,HOST…]` and `--input-scheme SCHEME[,SCHEME]`: which inputs a
/// night may name (`NightInputPolicy`), for `queue submit` and `worker`.
enum InputPolicyArgument {
    /// The options, for `ArgumentSpecification.options`.
    static let options: Set<String> = ["input-root", "input-host", "input-scheme"]
    /// The variable read when `--input-root` is not given.
    static let rootsVariable = "SLEEPANALYSIS_INPUT_ROOTS"
    /// The variable read when `--input-host` is not given.
    static let hostsVariable = "SLEEPANALYSIS_INPUT_HOSTS"
    /// Their lines in usage texts.
    static let usageLines = """
          --input-root DIR[:DIR…]   local inputs must lie under these directories (symbolic links and '..'
                                    resolved; default $SLEEPANALYSIS_INPUT_ROOTS)
          --input-host HOST[,…]     URLs may only name these hosts ('.example.org': any host under it; default
                                    $SLEEPANALYSIS_INPUT_HOSTS, else any host)
          --input-scheme S[,S]      URL schemes allowed: https, http (default both)
        """

    /// The policy the command line and environment give.
    ///
    /// - Parameters:
    ///   - parsed: The parsed command line.
    ///   - defaultRoots: The local roots when neither `--input-root` nor the variable is given (nil: anywhere).
    ///   - environment: The environment.
    /// - Returns: The policy.
    /// - Throws: A usage `CommandLineError` for an unknown scheme or an empty list.
    static func policy(
        _ parsed: ParsedArguments, defaultRoots: [URL]?,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws -> NightInputPolicy {
        let rootsText = parsed.option("input-root") ?? environment[rootsVariable].flatMap { $0.isEmpty ? nil : $0 }
        let roots =
            try rootsText.map { text in
                let parts = text.split(separator: ":").map(String.init).filter { !$0.isEmpty }
                guard !parts.isEmpty else { throw CommandLineError.usage("--input-root names no directory") }
                return parts.map { URL(fileURLWithPath: $0, isDirectory: true) }
            } ?? defaultRoots
        let hostsText = parsed.option("input-host") ?? environment[hostsVariable].flatMap { $0.isEmpty ? nil : $0 }
        let hosts = hostsText.map { $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) } }
        let schemes = Set(
            (parsed.option("input-scheme") ?? "http,https").split(separator: ",").map {
                $0.trimmingCharacters(in: .whitespaces).lowercased()
            })
        guard !schemes.isEmpty, schemes.isSubset(of: RemoteInputURL.schemes) else {
            throw CommandLineError.usage("--input-scheme takes https and/or http")
        }
        return NightInputPolicy(localRoots: roots, remoteSchemes: schemes, remoteHosts: hosts)
    }
}
