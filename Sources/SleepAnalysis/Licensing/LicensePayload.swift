import Foundation

/// The JSON inside a licence key, as signed. Times are whole seconds since 1970 (UTC).
package struct LicensePayload: Codable, Sendable, Hashable {
    /// The payload format version; this build reads version 1.
    var version: Int
    /// The issuer's key id (`LicenseIssuerKeyID`): which trusted public key must verify the signature.
    var issuer: String
    /// Who the licence is for (a customer, product or test name).
    var subject: String
    /// The enabled feature names (`SleepAnalysisFeatures.featureNames`).
    var features: [String]
    /// When it was issued.
    var issuedAt: Int64
    /// When it stops being valid.
    var expiresAt: Int64
    /// The model store base URL for slim mode, if the licence has one.
    var modelStore: String?
    /// True for a development licence (`License.developmentKey(subject:validFor:)`); absent otherwise.
    var development: Bool?

    /// The payload format version this build writes and reads.
    static let currentVersion = 1

    enum CodingKeys: String, CodingKey {
        case version = "v"
        case issuer = "kid"
        case subject = "sub"
        case features
        case issuedAt = "iat"
        case expiresAt = "exp"
        case modelStore = "models"
        case development = "dev"
    }
}
