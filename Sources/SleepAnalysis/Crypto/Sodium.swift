import CSodium
import Foundation

/// libsodium, initialised once, and the Ed25519 calls the licences use. The only place that calls libsodium's
/// signing functions; their status codes become Swift values here.
enum Sodium {
    /// Ed25519 public key size (`crypto_sign_PUBLICKEYBYTES`).
    static let publicKeyBytes = 32
    /// Ed25519 secret key size, seed and public key (`crypto_sign_SECRETKEYBYTES`).
    static let secretKeyBytes = 64
    /// Ed25519 seed size (`crypto_sign_SEEDBYTES`).
    static let seedBytes = 32
    /// Ed25519 signature size (`crypto_sign_BYTES`).
    static let signatureBytes = 64

    /// `sodium_init()`'s outcome, computed once (Swift initialises globals exactly once, thread-safely).
    private static let initialised: Bool = sodium_init() >= 0

    /// Makes sure libsodium is initialised.
    ///
    /// - Throws: `SleepCycleSdkError.invalidConfiguration` if `sodium_init()` failed.
    static func ensureInitialised() throws {
        guard initialised else {
            throw SleepCycleSdkError.invalidConfiguration("libsodium could not be initialised (sodium_init failed)")
        }
    }

    /// A fresh Ed25519 key pair (`crypto_sign_keypair`).
    ///
    /// - Returns: The 32-byte public key and the 64-byte secret key.
    static func generateSigningKeyPair() throws -> (publicKey: Data, secretKey: Data) {
        try ensureInitialised()
        var publicKey = [UInt8](repeating: 0, count: publicKeyBytes)
        var secretKey = [UInt8](repeating: 0, count: secretKeyBytes)
        guard crypto_sign_keypair(&publicKey, &secretKey) == 0 else {
            throw SleepCycleSdkError.invalidConfiguration("crypto_sign_keypair failed")
        }
        return (Data(publicKey), Data(secretKey))
    }

    /// The full 64-byte secret key and public key for a 32-byte seed (`crypto_sign_seed_keypair`).
    static func signingKeyPair(seed: Data) throws -> (publicKey: Data, secretKey: Data) {
        try ensureInitialised()
        guard seed.count == seedBytes else {
            throw SleepCycleSdkError.invalidConfiguration("an Ed25519 seed has \(seedBytes) bytes, not \(seed.count)")
        }
        var publicKey = [UInt8](repeating: 0, count: publicKeyBytes)
        var secretKey = [UInt8](repeating: 0, count: secretKeyBytes)
        let seedBytes = [UInt8](seed)
        guard crypto_sign_seed_keypair(&publicKey, &secretKey, seedBytes) == 0 else {
            throw SleepCycleSdkError.invalidConfiguration("crypto_sign_seed_keypair failed")
        }
        return (Data(publicKey), Data(secretKey))
    }

    /// A detached Ed25519 signature of `message` (`crypto_sign_detached`).
    static func sign(_ message: Data, secretKey: Data) throws -> Data {
        try ensureInitialised()
        guard secretKey.count == secretKeyBytes else {
            throw SleepCycleSdkError.invalidConfiguration(
                "an Ed25519 private key has \(secretKeyBytes) bytes, not \(secretKey.count)")
        }
        var signature = [UInt8](repeating: 0, count: signatureBytes)
        let messageBytes = [UInt8](message)
        let keyBytes = [UInt8](secretKey)
        guard crypto_sign_detached(&signature, nil, messageBytes, UInt64(messageBytes.count), keyBytes) == 0 else {
            throw SleepCycleSdkError.invalidConfiguration("crypto_sign_detached failed")
        }
        return Data(signature)
    }

    /// Whether `signature` is a valid Ed25519 signature of `message` by `publicKey`
    /// (`crypto_sign_verify_detached`); wrong sizes are simply invalid.
    static func verify(signature: Data, message: Data, publicKey: Data) throws -> Bool {
        try ensureInitialised()
        guard signature.count == signatureBytes, publicKey.count == publicKeyBytes else { return false }
        let signatureBytes = [UInt8](signature)
        let messageBytes = [UInt8](message)
        let keyBytes = [UInt8](publicKey)
        return crypto_sign_verify_detached(signatureBytes, messageBytes, UInt64(messageBytes.count), keyBytes) == 0
    }

    /// The public key inside a 64-byte secret key (`crypto_sign_ed25519_sk_to_pk`).
    static func publicKey(ofSecretKey secretKey: Data) throws -> Data {
        try ensureInitialised()
        guard secretKey.count == secretKeyBytes else {
            throw SleepCycleSdkError.invalidConfiguration(
                "an Ed25519 private key has \(secretKeyBytes) bytes, not \(secretKey.count)")
        }
        var publicKey = [UInt8](repeating: 0, count: publicKeyBytes)
        let keyBytes = [UInt8](secretKey)
        guard crypto_sign_ed25519_sk_to_pk(&publicKey, keyBytes) == 0 else {
            throw SleepCycleSdkError.invalidConfiguration("crypto_sign_ed25519_sk_to_pk failed")
        }
        return Data(publicKey)
    }
}
