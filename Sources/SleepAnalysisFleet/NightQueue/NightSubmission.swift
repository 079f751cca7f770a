import Foundation
import SleepAnalysis

/// A recorded night to analyse: where its files are and whose night it is. Each input is a file URL (a path every
/// worker can read) or an `http(s)` URL, which the worker that takes the job downloads first
/// (`RemoteInputFetcher`).
public struct NightSubmission: Sendable, Hashable, Codable {
    /// The audio file (a file or `http(s)` URL).
    public var audio: URL
    /// An accelerometer CSV (`timestamp,x,y,z`), if any (a file or `http(s)` URL).
    public var accelerometer: URL?
    /// A heart-rate CSV (`timestamp,bpm`), if any (a file or `http(s)` URL).
    public var heartRate: URL?
    /// When the recording began.
    public var startTime: Date
    /// Whose night it is (any identifier the application uses).
    public var subjectId: String
    /// How many times a worker may take the job before it is given up (transient failures, dead workers).
    public var maxAttempts: Int

    /// Describes a night.
    ///
    /// - Parameters:
    ///   - audio: The audio file.
    ///   - accelerometer: An accelerometer CSV, or nil.
    ///   - heartRate: A heart-rate CSV, or nil.
    ///   - startTime: When the recording began.
    ///   - subjectId: Whose night it is.
    ///   - maxAttempts: How many times a worker may take the job (at least 1).
    public init(
        audio: URL, accelerometer: URL? = nil, heartRate: URL? = nil, startTime: Date, subjectId: String,
        maxAttempts: Int = 5
    ) {
        self.audio = audio
        self.accelerometer = accelerometer
        self.heartRate = heartRate
        self.startTime = startTime
        self.subjectId = subjectId
        self.maxAttempts = max(1, maxAttempts)
    }
}
