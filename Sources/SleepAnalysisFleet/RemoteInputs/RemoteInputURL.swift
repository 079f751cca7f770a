import Foundation
import SleepAnalysis

/// Inputs given as URLs: which are remote, checking one given as text, and writing one without its secrets.
public enum RemoteInputURL {
    /// The schemes a worker fetches.
    public static let schemes: Set<String> = ["http", "https"]

    /// True for an `http` or `https` URL (case-insensitive scheme).
    public static func isRemote(_ url: URL) -> Bool {
        url.scheme.map { schemes.contains($0.lowercased()) } ?? false
    }

    /// True when `text` is written as a URL (`scheme://…`) rather than a path.
    public static func looksLikeURL(_ text: String) -> Bool {
        guard let separator = text.range(of: "://") else { return false }
        let scheme = text[..<separator.lowerBound]
        return !scheme.isEmpty && scheme.allSatisfy { $0.isLetter || $0.isNumber || "+-.".contains($0) }
    }

    /// Parses `text` as an input URL.
    ///
    /// - Parameter text: `https://host/path?query`.
    /// - Returns: The URL.
    /// - Throws: `RemoteInputError.malformedURL` when it is no URL with a host, `.unsupportedScheme` when it is
    ///   not `http` or `https`.
    public static func parse(_ text: String) throws -> URL {
        guard let components = URLComponents(string: text), let scheme = components.scheme,
            let url = components.url
        else {
            throw RemoteInputError.malformedURL(redacted(text))
        }
        guard schemes.contains(scheme.lowercased()) else {
            throw RemoteInputError.unsupportedScheme(scheme, url: redacted(text))
        }
        try validate(url)
        return url
    }

    /// Checks an `http(s)` URL: a host, and nothing libcurl would refuse.
    ///
    /// - Throws: `RemoteInputError.malformedURL` or `.unsupportedScheme`.
    public static func validate(_ url: URL) throws {
        guard let scheme = url.scheme, schemes.contains(scheme.lowercased()) else {
            throw RemoteInputError.unsupportedScheme(url.scheme ?? "", url: redacted(url))
        }
        guard let host = URLComponents(url: url, resolvingAgainstBaseURL: false)?.host, !host.isEmpty,
            !host.contains(where: { $0.isWhitespace })
        else {
            throw RemoteInputError.malformedURL(redacted(url))
        }
    }

    /// The URL with its password and query values replaced by `***`, fit for logs and messages.
    public static func redacted(_ url: URL) -> String {
        redacted(url.absoluteString)
    }

    /// `text` (a URL) with its password (`user:secret@`) and query values (`?token=secret`) replaced by `***`;
    /// text that does not parse as a URL loses everything after its scheme's `//` but the host's first letters.
    public static func redacted(_ text: String) -> String {
        guard var components = URLComponents(string: text) else {
            guard let separator = text.range(of: "://") else { return "***" }
            return text[..<separator.upperBound] + "***"
        }
        if components.password != nil { components.password = "***" }
        if let items = components.queryItems, !items.isEmpty {
            components.queryItems = items.map { URLQueryItem(name: $0.name, value: $0.value == nil ? nil : "***") }
        }
        if components.fragment != nil { components.fragment = "***" }
        return components.string ?? "***"
    }
}
