import Foundation
import SleepAnalysis

/// Licence keys: the bytes as key text go through `LicenseVerifier.verify` (splitting, canonical base64url,
/// payload JSON, signature, features, model store, expiry); the bytes as payload JSON, wrapped in a key with a
/// zero signature, go through `LicenseKey(parsing:)` and `License(payload:)`, which a fuzzer cannot otherwise
/// reach past the signature. Rejections must be `invalidApiKey`.
enum LicenseKeyHarness {
    /// The seed of an issuer key pair made for fuzzing only; the seed corpus holds keys it signed, so mutated
    /// keys reach the checks after the signature. Never trusted outside this harness.
    static let fuzzingIssuerSeed = Data("sleepanalysis-fuzz-only-issuer-1".utf8)

    /// The time against which expiry is checked: fixed, so a run does not depend on the clock.
    private static let now = Date(timeIntervalSince1970: 1_764_630_000)

    /// A verifier trusting the built-in issuers and the fuzzing issuer, ignoring the environment.
    private static let verifier: LicenseVerifier = {
        do {
            let issuer = try LicenseIssuer.keyPair(privateKeyBase64: fuzzingIssuerSeed.base64EncodedString())
            return try LicenseVerifier(trustedIssuerKeys: [issuer.publicKeyBase64], environment: [:])
        } catch {
            fatalError("cannot make the fuzzing issuer's verifier: \(error)")
        }
    }()

    /// The harness.
    static let harness = FuzzHarness(
        name: "license-key", summary: "LicenseVerifier.verify on key text; LicenseKey and License on payload JSON"
    ) { bytes in
        var accepted = false
        do {
            _ = try verifier.verify(String(decoding: bytes, as: UTF8.self), now: now)
            accepted = true
        } catch {
            requireInvalidApiKey(error)
        }
        let wrapped = LicenseKey.serialise(payloadBytes: Data(bytes), signature: Data(count: 64))
        do {
            let key = try LicenseKey(parsing: wrapped)
            accepted = try !License(payload: key.payload).isExpired(at: now) || accepted
        } catch {
            requireInvalidApiKey(error)
        }
        return accepted
    }

    private static func requireInvalidApiKey(_ error: any Error) {
        FuzzContract.requireDocumented(error, harness: "license-key") {
            if case .invalidApiKey = $0 { true } else { false }
        }
    }
}
