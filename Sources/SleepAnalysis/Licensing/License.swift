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
    /// Whether it is a development licence (`developmentKey(subject:validFor:)`): valid for at most a day, in the
    /// process that made it, for trying the library out; never for production.
    public let isDevelopment: Bool

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
        isDevelopment = payload.development == true
    }

    private enum CodingKeys: String, CodingKey {
        case features, subject, issuedAt, expiresAt, modelStore, issuerKeyId, isDevelopment
    }

    /// Decodes a licence; one written before `isDevelopment` existed is not a development licence.
    ///
    /// - Parameter decoder: The decoder.
    /// - Throws: `DecodingError` for a missing or mistyped field.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        features = try container.decode(SleepAnalysisFeatures.self, forKey: .features)
        subject = try container.decode(String.self, forKey: .subject)
        issuedAt = try container.decode(Date.self, forKey: .issuedAt)
        expiresAt = try container.decode(Date.self, forKey: .expiresAt)
        modelStore = try container.decodeIfPresent(URL.self, forKey: .modelStore)
        issuerKeyId = try container.decode(String.self, forKey: .issuerKeyId)
        isDevelopment = try container.decodeIfPresent(Bool.self, forKey: .isDevelopment) ?? false
    }
}
