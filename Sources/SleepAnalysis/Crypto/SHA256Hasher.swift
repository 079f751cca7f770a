import CSodium
import Foundation

/// Incremental SHA-256 through libsodium (`crypto_hash_sha256_*`), for model checksums and cache keys.
package struct SHA256Hasher: ~Copyable {
    private var state = crypto_hash_sha256_state()

    /// Starts a new digest.
    package init() throws {
        try Sodium.ensureInitialised()
        guard crypto_hash_sha256_init(&state) == 0 else {
            throw SleepCycleSdkError.invalidConfiguration("crypto_hash_sha256_init failed")
        }
    }

    /// Adds bytes to the digest.
    package mutating func update(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
        _ = crypto_hash_sha256_update(&state, base.assumingMemoryBound(to: UInt8.self), UInt64(bytes.count))
    }

    /// Adds `data` to the digest.
    package mutating func update(_ data: Data) {
        data.withUnsafeBytes { update($0) }
    }

    /// The digest, as 64 lower-case hex digits.
    package consuming func finalizeHex() -> String {
        var digest = [UInt8](repeating: 0, count: 32)
        _ = crypto_hash_sha256_final(&state, &digest)
        return digest.map { String(format: "%02x", $0) }.joined()
    }

    /// The SHA-256 of `data`, in hex.
    package static func hex(of data: Data) throws -> String {
        var hasher = try SHA256Hasher()
        hasher.update(data)
        return hasher.finalizeHex()
    }

    /// The SHA-256 of a file's contents, in hex, read in 1 MiB blocks.
    ///
    /// - Throws: `SleepCycleSdkError.storageFailure` if the file cannot be read.
    package static func hex(ofFile url: URL) throws -> String {
        var hasher = try SHA256Hasher()
        do {
            let handle = try FileHandle(forReadingFrom: url)
            defer { try? handle.close() }
            while let block = try handle.read(upToCount: 1 << 20), !block.isEmpty {
                hasher.update(block)
            }
        } catch {
            throw SleepCycleSdkError.storageFailure("cannot read \(url.path): \(error.localizedDescription)")
        }
        return hasher.finalizeHex()
    }
}
