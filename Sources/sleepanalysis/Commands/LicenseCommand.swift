import CommandLineKit
import Foundation
import SleepAnalysis

/// `sleepanalysis license keygen|issue|verify`: makes issuer key pairs, mints licence keys from a private key, and
/// checks a key offline.
///
/// - `keygen --out DIR [--force]` writes `DIR/private.key` (mode 0600) and `DIR/public.key`, base64 text, and
///   prints the public key.
/// - `issue --private-key FILE --features all|NAME,NAME --expires YYYY-MM-DD [--subject S] [--model-store URL]`
///   prints a key on standard output. A date means "valid through that day (UTC)"; an ISO 8601 time is exact.
/// - `verify KEY [--trusted-key BASE64,BASE64] [--format json|text]` prints what the key grants, or fails with
///   the reason (trusted: the built-in issuers, `SLEEPANALYSIS_TRUSTED_KEYS` and `--trusted-key`).
enum LicenseCommand: Command {
    static let name = "license"
    static let summary = "make issuer keys, mint and verify licence keys (keygen, issue, verify)"
    static let overview = """
        usage: sleepanalysis license keygen --out DIR [--force]
               sleepanalysis license issue --private-key FILE --features all|NAME,NAME --expires YYYY-MM-DD
                                           [--subject S] [--model-store URL]
               sleepanalysis license verify KEY [--trusted-key BASE64,BASE64] [--format json|text]

          features: \(SleepAnalysisFeatures.featureNames.joined(separator: ", "))

        The options of one action: sleepanalysis help license issue (or license issue --help).

        """

    /// What it accepts: the actions and their specifications.
    static var syntax: CommandSyntax {
        .subcommands(
            usage: overview,
            [
                .init(name: "keygen", specification: keygenSpecification),
                .init(name: "issue", specification: issueSpecification),
                .init(name: "verify", specification: verifySpecification),
            ])
    }

    static func run(_ arguments: [String]) async throws {
        guard let action = arguments.first else { throw CommandLineError.usage("missing action", usage: overview) }
        let rest = Array(arguments.dropFirst())
        switch action {
        case "keygen": try keygen(rest)
        case "issue": try issue(rest)
        case "verify": try verify(rest)
        case "-h", "--help", "help": try StandardOutput.print(overview, terminator: "")
        default: throw CommandLineError.usage("unknown action '\(action)'", usage: overview)
        }
    }

    // MARK: - keygen

    static let keygenSpecification = ArgumentSpecification(
        options: ["out"], flags: ["force"], shortNames: ["o": "out"],
        usage: """
            usage: sleepanalysis license keygen --out DIR [--force]

              -o, --out DIR   where private.key (mode 0600) and public.key are written (base64 text)
                  --force     replace existing key files

            """)

    private static func keygen(_ arguments: [String]) throws {
        guard let parsed = try ArgumentParser.parseUnlessHelp(arguments, keygenSpecification) else { return }
        guard let out = parsed.option("out") else {
            throw CommandLineError.usage("--out DIR is required", usage: keygenSpecification.usage)
        }
        let directory = URL(fileURLWithPath: out, isDirectory: true)
        let privateFile = directory.appendingPathComponent("private.key")
        let publicFile = directory.appendingPathComponent("public.key")
        let manager = FileManager.default
        if !parsed.flag("force"),
            manager.fileExists(atPath: privateFile.path) || manager.fileExists(atPath: publicFile.path)
        {
            throw CommandLineError(
                kind: .failure, message: "\(directory.path) already holds a key; use --force to replace it", usage: nil)
        }
        let keys = try LicenseIssuer.generateKeyPair()
        do {
            try manager.createDirectory(at: directory, withIntermediateDirectories: true)
            try? manager.removeItem(at: privateFile)
            guard
                manager.createFile(
                    atPath: privateFile.path, contents: Data((keys.privateKeyBase64 + "\n").utf8),
                    attributes: [.posixPermissions: 0o600])
            else { throw CocoaError(.fileWriteNoPermission) }
            try Data((keys.publicKeyBase64 + "\n").utf8).write(to: publicFile, options: .atomic)
        } catch {
            throw CommandLineError(
                kind: .outputFailed,
                message: "cannot write the keys in \(directory.path): \(error.localizedDescription)",
                usage: nil)
        }
        try StandardOutput.print(keys.publicKeyBase64)
    }

    // MARK: - issue

    static let issueSpecification = ArgumentSpecification(
        options: ["private-key", "features", "expires", "subject", "model-store"],
        usage: """
            usage: sleepanalysis license issue --private-key FILE --features all|NAME,NAME --expires YYYY-MM-DD
                                               [--subject S] [--model-store URL]

              --private-key FILE   the issuer's private key (from keygen)
              --features LIST      'all' or comma-separated names:
                                   \(SleepAnalysisFeatures.featureNames.joined(separator: ", "))
              --expires DATE       YYYY-MM-DD (valid through that day, UTC) or an ISO 8601 time
              --subject S          who the licence is for (default 'unspecified')
              --model-store URL    http(s):// or file:// model store for slim mode

            """)

    private static func issue(_ arguments: [String]) throws {
        guard let parsed = try ArgumentParser.parseUnlessHelp(arguments, issueSpecification) else { return }
        let usage = issueSpecification.usage
        guard let keyPath = parsed.option("private-key"), let featureList = parsed.option("features"),
            let expiresText = parsed.option("expires")
        else {
            throw CommandLineError.usage("--private-key, --features and --expires are required", usage: usage)
        }
        let features = try parseFeatures(featureList, usage: usage)
        let expires = try parseExpiry(expiresText, usage: usage)
        var modelStore: URL?
        if let store = parsed.option("model-store") {
            guard let url = URL(string: store), url.scheme != nil else {
                throw CommandLineError.usage("--model-store: '\(store)' is not a URL", usage: usage)
            }
            modelStore = url
        }
        let keyText: String
        do {
            keyText = try String(contentsOfFile: keyPath, encoding: .utf8)
        } catch {
            throw CommandLineError.badData("cannot read the private key \(keyPath): \(error.localizedDescription)")
        }
        let keys = try LicenseIssuer.keyPair(privateKeyBase64: keyText)
        try StandardOutput.print(
            try LicenseIssuer.issue(
                features: features, expires: expires, subject: parsed.option("subject") ?? "unspecified",
                modelStore: modelStore, privateKey: keys.privateKey))
    }

    /// `all`, or comma-separated feature names.
    static func parseFeatures(_ list: String, usage: String) throws -> SleepAnalysisFeatures {
        if list == "all" { return .all }
        var unknown: [String] = []
        let names = list.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        let features = SleepAnalysisFeatures(names: names, unknown: &unknown)
        guard unknown.isEmpty, !names.isEmpty else {
            throw CommandLineError.usage(
                "--features: unknown feature(s) \(unknown.joined(separator: ", ")); expected 'all' or names from "
                    + SleepAnalysisFeatures.featureNames.joined(separator: ", "), usage: usage)
        }
        return features
    }

    /// `YYYY-MM-DD` (the end of that day, UTC) or an ISO 8601 time.
    static func parseExpiry(_ text: String, usage: String) throws -> Date {
        let parser = ISO8601DateTimeParser(syntax: .timestamp)
        if let day = parser.day(from: text) { return day.addingTimeInterval(86_400) }
        if let time = parser.date(from: text) { return time }
        throw CommandLineError.usage("--expires: '\(text)' is not YYYY-MM-DD or an ISO 8601 time", usage: usage)
    }

    // MARK: - verify

    static let verifySpecification = ArgumentSpecification(
        options: ["trusted-key", "format"], shortNames: ["f": "format"], positionals: ["KEY"],
        usage: """
            usage: sleepanalysis license verify KEY [--trusted-key BASE64,BASE64] [--format json|text]

                  KEY                 the licence key (sa1.…), or - to read it from standard input
                  --trusted-key LIST  extra trusted issuer public keys (besides the built-in ones and
                                      SLEEPANALYSIS_TRUSTED_KEYS)
              -f, --format json|text  output format (default text)

            """)

    private static func verify(_ arguments: [String]) throws {
        guard let parsed = try ArgumentParser.parseUnlessHelp(arguments, verifySpecification) else { return }
        let format = try parsed.choice("format", from: ["json", "text"], default: "text")
        var key = parsed.positionals[0]
        if key == "-" { key = String(decoding: FileHandle.standardInput.readDataToEndOfFile(), as: UTF8.self) }
        let trusted = (parsed.option("trusted-key") ?? "").split(separator: ",").map(String.init)
        let license = try LicenseVerifier(trustedIssuerKeys: trusted).verify(key)
        if format == "json" {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            encoder.dateEncodingStrategy = .iso8601
            try StandardOutput.print(String(decoding: try encoder.encode(license), as: UTF8.self))
        } else {
            try StandardOutput.print(
                """
                valid licence for '\(license.subject)'
                  features: \(license.features.enabledNames.joined(separator: ", "))
                  issued:   \(license.issuedAt.formatted(.iso8601))
                  expires:  \(license.expiresAt.formatted(.iso8601))
                  models:   \(license.modelStore?.absoluteString ?? "bundled")
                """)
        }
    }
}
