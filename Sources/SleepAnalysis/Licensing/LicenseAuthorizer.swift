import Foundation

/// Turns an API key into a licence for `initialize`.
///
/// The key given is verified from its Ed25519 signature on every call (about 50 µs); nothing on disk is trusted.
/// The cache (`LicenseTokenCache`) is only a record of the keys verified in the state directory: an entry is kept
/// while it holds the very key given and records exactly what that key's signature grants, and is otherwise
/// removed and written afresh. Offline verification needs nothing the cache could supply, so the cache can never
/// widen, extend or replace what a key grants.
struct LicenseAuthorizer: Sendable {
    /// Verifies keys.
    let verifier: LicenseVerifier
    /// Records verified keys.
    let cache: LicenseTokenCache
    /// Logs what happens.
    let logger: SDKLogger

    /// The licence `apiKey` grants, from its signature.
    ///
    /// - Parameters:
    ///   - apiKey: The key.
    ///   - forceRefresh: Discard the key's cache entry and record it afresh even if it matches. (The key is
    ///     verified either way.)
    ///   - now: The current time (injectable for tests).
    /// - Returns: The licence.
    /// - Throws: `SleepCycleSdkError.invalidApiKey` for a rejected or expired key; its cache entry, if any, is
    ///   removed.
    func authorize(apiKey: String, forceRefresh: Bool, now: Date = Date()) throws -> License {
        let license: License
        do {
            license = try verifier.verify(apiKey, now: now)
        } catch {
            cache.remove(for: apiKey)
            throw error
        }
        logger.info(
            "Licence for '\(license.subject)' verified: features \(license.features), expires "
                + "\(license.expiresAt.formatted(.iso8601)).")
        if license.isDevelopment {
            logger.notice(
                "Running under a development licence, valid in this process until "
                    + "\(license.expiresAt.formatted(.iso8601)): not for production; ship with a production key.")
            // A new key each process: recording it would only push production keys' entries out of the cache.
            return license
        }
        if !forceRefresh, let entry = cache.entry(for: apiKey) {
            // The entry's key is the key just verified, so its signature has been checked on this use.
            if entry.key == LicenseTokenCache.normalised(apiKey), entry.license == license {
                logger.debug("The licence cache entry recorded at \(entry.recordedAt.formatted(.iso8601)) matches.")
                return license
            }
            logger.warning(
                "Discarded the licence cache entry for '\(license.subject)': it does not match what the key grants.")
        }
        cache.remove(for: apiKey)
        do {
            try cache.record(license, for: apiKey, at: now)
        } catch {
            logger.warning("The verified licence could not be recorded in the cache: \(error)")
        }
        return license
    }
}
