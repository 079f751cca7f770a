import Foundation
import SleepAnalysis

/// Which inputs a submission may name and a worker may open: local files only under given roots, URLs only with
/// given schemes and hosts. `NightQueue.enqueue(_:policy:)` checks a night against it before queuing it, and a
/// `NightWorker` checks again when it claims the job (a job queued by someone else, or before the policy changed),
/// failing the job without opening anything.
///
/// ```swift
/// let policy = NightInputPolicy(
///     localRoots: [URL(fileURLWithPath: "/srv/nights")], remoteHosts: ["store.example"])
/// try policy.check(night)   // /etc/shadow or https://elsewhere.example/… → refused
/// ```
public struct NightInputPolicy: Sendable, Hashable {
    /// The directories local inputs must lie under (after resolving `..` and symbolic links); nil allows any path,
    /// an empty list none.
    public var localRoots: [URL]?
    /// The URL schemes allowed (a subset of `http` and `https`).
    public var remoteSchemes: Set<String>
    /// The hosts URLs may name: `store.example` matches that host, `.example.org` any host under it; nil allows
    /// any host, an empty list none.
    public var remoteHosts: [String]?

    /// Any local path and any `http(s)` URL: for trusted queues and tests.
    public static let unconfined = NightInputPolicy(localRoots: nil, remoteHosts: nil)

    /// Creates a policy.
    ///
    /// - Parameters:
    ///   - localRoots: The directories local inputs must lie under; nil for anywhere, empty for no local input.
    ///   - remoteSchemes: The allowed URL schemes (lower-cased; only `http` and `https` are ever fetched).
    ///   - remoteHosts: The allowed hosts (`host` or `.domain`); nil for any.
    public init(localRoots: [URL]?, remoteSchemes: Set<String> = ["http", "https"], remoteHosts: [String]? = nil) {
        self.localRoots = localRoots.map { $0.map(Self.resolved) }
        self.remoteSchemes = Set(remoteSchemes.map { $0.lowercased() }).intersection(RemoteInputURL.schemes)
        self.remoteHosts = remoteHosts.map { $0.map { $0.lowercased() } }
    }

    /// Checks every input of `night` (see `check(_:role:)`).
    ///
    /// - Throws: As `check(_:role:)`.
    public func check(_ night: NightSubmission) throws {
        try check(night.audio, role: "audio")
        if let input = night.accelerometer { try check(input, role: "accelerometer") }
        if let input = night.heartRate { try check(input, role: "heart-rate") }
    }

    /// Checks one input.
    ///
    /// - Parameters:
    ///   - input: A file URL or an `http(s)` URL.
    ///   - role: What the input is (`audio`, …), for the message.
    /// - Throws: `SleepCycleSdkError.invalidInput` for a relative path or one outside the roots;
    ///   `RemoteInputError.unsupportedScheme`, `.hostNotAllowed` or `.malformedURL` for a URL not allowed.
    public func check(_ input: URL, role: String) throws {
        guard input.isFileURL else {
            try RemoteInputURL.validate(input)
            let scheme = input.scheme?.lowercased() ?? ""
            guard remoteSchemes.contains(scheme) else {
                throw RemoteInputError.unsupportedScheme(scheme, url: RemoteInputURL.redacted(input))
            }
            let host = (URLComponents(url: input, resolvingAgainstBaseURL: false)?.host ?? "").lowercased()
            if let remoteHosts, !remoteHosts.contains(where: { Self.host(host, matches: $0) }) {
                throw RemoteInputError.hostNotAllowed(host, url: RemoteInputURL.redacted(input))
            }
            return
        }
        guard let localRoots else { return }
        guard input.path.hasPrefix("/") else {
            throw SleepCycleSdkError.invalidInput("the \(role) input \(input.path) is not an absolute path")
        }
        let path = Self.resolved(input).path
        guard localRoots.contains(where: { path.hasPrefix($0.path == "/" ? "/" : $0.path + "/") }) else {
            let roots = localRoots.isEmpty ? "none are configured" : localRoots.map(\.path).joined(separator: ", ")
            throw SleepCycleSdkError.invalidInput(
                "the \(role) input \(input.path) is outside the input roots (\(roots)): it is not read")
        }
    }

    /// True when `host` is `pattern`, or lies under it when `pattern` starts with a dot.
    private static func host(_ host: String, matches pattern: String) -> Bool {
        pattern.hasPrefix(".") ? host.hasSuffix(pattern) || host == String(pattern.dropFirst()) : host == pattern
    }

    /// The path with `.`, `..` and symbolic links resolved (as far as it exists).
    private static func resolved(_ url: URL) -> URL {
        URL(fileURLWithPath: url.path).standardizedFileURL.resolvingSymlinksInPath()
    }
}
