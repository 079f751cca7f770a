import Foundation
import SleepAnalysis

/// Why an input given as an `http(s)` URL cannot be used. Messages show URLs redacted
/// (`RemoteInputURL.redacted(_:)`): never a password or a query token.
public enum RemoteInputError: Error, Sendable, Hashable, CustomStringConvertible, LocalizedError {
    /// The text is not a well-formed URL with a host.
    case malformedURL(String)
    /// The URL's scheme is not `http` or `https`.
    case unsupportedScheme(String, url: String)
    /// The URL's host is not among the hosts the queue or worker allows (`NightInputPolicy.remoteHosts`).
    case hostNotAllowed(String, url: String)
    /// The server refused the file for good (404, 403, 410, any other 4xx but 408 and 429).
    case refused(status: Int, url: String)
    /// The file is larger than the worker accepts.
    case tooLarge(bytes: Int64, limit: Int64, url: String)
    /// The server could not be reached or kept failing (dropped connections, timeouts, 5xx) after the retries.
    case unavailable(String, url: String)
    /// The downloaded bytes could not be written to the worker's cache directory.
    case cannotStore(String)

    /// True when trying again cannot help: the input itself is wrong (the job fails instead of being retried).
    public var isPermanent: Bool {
        switch self {
        case .malformedURL, .unsupportedScheme, .hostNotAllowed, .refused, .tooLarge: true
        case .unavailable, .cannotStore: false
        }
    }

    /// The message, with URLs redacted.
    public var description: String {
        switch self {
        case .malformedURL(let text): "Remote input: '\(text)' is not a valid http(s) URL"
        case .unsupportedScheme(let scheme, let url):
            "Remote input: \(url) uses '\(scheme)'; inputs are paths or http(s) URLs"
        case .hostNotAllowed(let host, let url): "Remote input: \(url) names the host '\(host)', which is not allowed"
        case .refused(let status, let url): "Remote input: \(url) answered HTTP \(status)"
        case .tooLarge(let bytes, let limit, let url):
            "Remote input: \(url) is \(bytes) bytes, more than the limit of \(limit)"
        case .unavailable(let why, let url): "Remote input: \(url) could not be fetched: \(why)"
        case .cannotStore(let why): "Remote input: cannot store the download: \(why)"
        }
    }

    /// The message a person needs (`localizedDescription` gives the same).
    public var errorDescription: String? { description }
}
