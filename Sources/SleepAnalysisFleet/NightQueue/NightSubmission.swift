import Foundation
import SleepAnalysis

/// A recorded night to analyse: where its files are, whose night it is, and how it is queued. Each input is a file
/// URL (a path every worker can read, under the workers' input roots) or an `http(s)` URL, which the worker that
/// takes the job downloads first (`RemoteInputFetcher`).
public struct NightSubmission: Sendable, Hashable, Codable {
    /// The queue a job goes to when none is named.
    public static let defaultQueue = "default"

    /// The audio file (a file or `http(s)` URL).
    public var audio: URL
    /// An accelerometer CSV (`timestamp,x,y,z`), if any (a file or `http(s)` URL).
    public var accelerometer: URL?
    /// A heart-rate CSV (`timestamp,bpm`), if any (a file or `http(s)` URL).
    public var heartRate: URL?
    /// When the recording began.
    public var startTime: Date
    /// Whose night it is (any identifier the application uses; not empty).
    public var subjectId: String
    /// How many times a worker may take the job before it is given up (transient failures, dead workers).
    public var maxAttempts: Int
    /// The named queue (`default` unless given): workers may take jobs from some queues only.
    public var queue: String
    /// Higher first: a ready job of higher priority is always claimed before one of lower priority, whatever
    /// their ages (tonight's nights at 0, a re-analysis backlog below 0).
    public var priority: Int
    /// No worker takes the job before this time (nil: at once).
    public var runAt: Date?
    /// What makes two submissions the same night: a second submission with a key already in the queue returns
    /// the existing job instead of adding one. Nil: the default key (`defaultIdempotencyKey()`: the subject, the
    /// queue, the start and the inputs' content).
    public var idempotencyKey: String?

    /// Describes a night.
    ///
    /// - Parameters:
    ///   - audio: The audio file.
    ///   - accelerometer: An accelerometer CSV, or nil.
    ///   - heartRate: A heart-rate CSV, or nil.
    ///   - startTime: When the recording began.
    ///   - subjectId: Whose night it is.
    ///   - maxAttempts: How many times a worker may take the job (at least 1).
    ///   - queue: The named queue.
    ///   - priority: Higher is claimed first.
    ///   - runAt: The earliest time a worker takes it; nil for at once.
    ///   - idempotencyKey: An explicit key; nil for the default one.
    public init(
        audio: URL, accelerometer: URL? = nil, heartRate: URL? = nil, startTime: Date, subjectId: String,
        maxAttempts: Int = 5, queue: String = NightSubmission.defaultQueue, priority: Int = 0, runAt: Date? = nil,
        idempotencyKey: String? = nil
    ) {
        self.audio = audio
        self.accelerometer = accelerometer
        self.heartRate = heartRate
        self.startTime = startTime
        self.subjectId = subjectId
        self.maxAttempts = max(1, maxAttempts)
        self.queue = queue
        self.priority = priority
        self.runAt = runAt
        self.idempotencyKey = idempotencyKey
    }

    private enum CodingKeys: String, CodingKey {
        case audio, accelerometer, heartRate, startTime, subjectId, maxAttempts, queue, priority, runAt
        case idempotencyKey
    }

    /// Decodes a submission; the members added after 1.0.0-beta.1 (`queue`, `priority`, `runAt`,
    /// `idempotencyKey`) may be absent.
    ///
    /// - Throws: `DecodingError`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            audio: try container.decode(URL.self, forKey: .audio),
            accelerometer: try container.decodeIfPresent(URL.self, forKey: .accelerometer),
            heartRate: try container.decodeIfPresent(URL.self, forKey: .heartRate),
            startTime: try container.decode(Date.self, forKey: .startTime),
            subjectId: try container.decode(String.self, forKey: .subjectId),
            maxAttempts: try container.decodeIfPresent(Int.self, forKey: .maxAttempts) ?? 5,
            queue: try container.decodeIfPresent(String.self, forKey: .queue) ?? Self.defaultQueue,
            priority: try container.decodeIfPresent(Int.self, forKey: .priority) ?? 0,
            runAt: try container.decodeIfPresent(Date.self, forKey: .runAt),
            idempotencyKey: try container.decodeIfPresent(String.self, forKey: .idempotencyKey))
    }

    /// The key used when `idempotencyKey` is nil: `night:` and the SHA-256 (hex) of the subject, the queue, the
    /// start time (to the millisecond) and each input's identity — the SHA-256 of a local file's whole content (the
    /// same recording under another path is the same night), an `http(s)` URL as written (its content is not
    /// fetched at submission), or the path when the file cannot be read where the submission is made.
    ///
    /// - Returns: The key.
    /// - Throws: `SleepCycleSdkError` when hashing is unavailable (libsodium failed to initialise).
    public func defaultIdempotencyKey() throws -> String {
        var lines = [
            "sleepanalysis-night-key-1", "subject=\(subjectId)", "queue=\(queue)",
            "start-ms=\(Int64((startTime.timeIntervalSince1970 * 1_000).rounded()))",
        ]
        for (role, input) in [("audio", audio), ("accelerometer", accelerometer), ("heart-rate", heartRate)] {
            guard let input else { continue }
            lines.append("\(role)=" + (try Self.identity(of: input)))
        }
        return "night:" + (try SHA256Hasher.hex(of: Data(lines.joined(separator: "\n").utf8)))
    }

    /// An input's identity for the default key.
    private static func identity(of input: URL) throws -> String {
        guard input.isFileURL else { return "url:" + input.absoluteString }
        if RegularFileCheck.specialKind(of: input.path) == nil, FileManager.default.isReadableFile(atPath: input.path),
            let digest = try? SHA256Hasher.hex(ofFile: input)
        {
            return "sha256:" + digest
        }
        return "path:" + input.path
    }
}
