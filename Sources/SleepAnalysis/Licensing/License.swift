import Foundation

/// A verified licence: what an API key grants, to whom, and until when.
public struct License: Sendable, Hashable, Codable {
    /// The enabled features.
    public let features: SleepAnalysisFeatures
    /// Who the licence is for.
    public let subject: String
    /// When it was issued.
    public let issuedAt: Date
    /// When it stops being valid.
    public let expiresAt: Date
    /// The model store base URL for slim mode (`http(s)://` or `file://`), if the licence has one.
    public let modelStore: URL?
    /// The key id of the issuer whose public key verified it (16 hex digits).
    public let issuerKeyId: String

    /// Whether the licence has expired at `date`.
    ///
    /// - Parameter date: The time to check (default now).
    /// - Returns: True from `expiresAt` on.
    public func isExpired(at date: Date = Date()) -> Bool { date >= expiresAt }

    /// Creates a licence from a verified payload, or fails if it names unknown features.
    package init(payload: LicensePayload) throws {
        var unknown: [String] = []
        features = SleepAnalysisFeatures(names: payload.features, unknown: &unknown)
        guard unknown.isEmpty else {
            throw SleepCycleSdkError.invalidApiKey(
                "the licence names unknown features: \(unknown.joined(separator: ", ")) (this build knows "
                    + "\(SleepAnalysisFeatures.featureNames.joined(separator: ", "))).")
        }
        subject = payload.subject
        issuedAt = Date(timeIntervalSince1970: TimeInterval(payload.issuedAt))
        expiresAt = Date(timeIntervalSince1970: TimeInterval(payload.expiresAt))
        if let store = payload.modelStore {
            guard let url = URL(string: store), let scheme = url.scheme?.lowercased(),
                ["http", "https", "file"].contains(scheme)
            else {
                throw SleepCycleSdkError.invalidApiKey(
                    "the licence's model store '\(store)' is not an http(s):// or file:// URL.")
            }
            modelStore = url
        } else {
            modelStore = nil
        }
        issuerKeyId = payload.issuer
    }
}
