import Foundation

/// Where models come from: bundled with the library, or downloaded from a model store ("slim").
enum ModelProvisioningMode: Sendable, Hashable {
    /// The files in the library's bundled `Models/` folder.
    case bundled
    /// Downloaded from the model store at this base URL (`http(s)://` or `file://`); nil means none is known.
    case slim(baseURL: URL?)

    /// The variable that forces a mode: `bundled` or `slim`.
    static let modeVariable = "SLEEPANALYSIS_MODELS"
    /// The variable that names a model store (it overrides the licence's, and selects slim mode).
    static let storeVariable = "SLEEPANALYSIS_MODEL_STORE"

    /// The mode for a licence: `SLEEPANALYSIS_MODELS` if set; else slim when `SLEEPANALYSIS_MODEL_STORE` is set or
    /// the licence names a model store; else bundled.
    ///
    /// - Parameters:
    ///   - license: The verified licence.
    ///   - environment: The process environment.
    /// - Returns: The mode.
    /// - Throws: `SleepCycleSdkError.invalidConfiguration` for an unknown mode or a store that is not a URL.
    static func resolve(
        license: License, environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws -> ModelProvisioningMode {
        var store = license.modelStore
        if let text = environment[storeVariable], !text.isEmpty {
            guard let url = URL(string: text), let scheme = url.scheme?.lowercased(),
                ["http", "https", "file"].contains(scheme)
            else {
                throw SleepCycleSdkError.invalidConfiguration(
                    "\(storeVariable) must be an http(s):// or file:// URL, not '\(text)'")
            }
            store = url
        }
        switch environment[modeVariable]?.lowercased() {
        case "bundled": return .bundled
        case "slim": return .slim(baseURL: store)
        case nil, "": return store == nil ? .bundled : .slim(baseURL: store)
        case let other?:
            throw SleepCycleSdkError.invalidConfiguration("\(modeVariable) must be 'bundled' or 'slim', not '\(other)'")
        }
    }
}
