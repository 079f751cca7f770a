import Foundation
import SleepAnalysis

/// The kinds of chunk a session takes, by their path segment.
package enum NightChunkKind: String, Sendable, Hashable, CaseIterable, Encodable {
    /// Audio files (WAV, FLAC, Ogg Opus).
    case audio
    /// Accelerometer CSV (`timestamp,x,y,z`).
    case accelerometer
    /// Heart-rate CSV (`timestamp,bpm`).
    case heartRate = "heart-rate"
}

/// The night service's JSON bodies, written with `SleepAnalysisJSON` (each with `schemaVersion`); their shapes
/// are in `Schemas/night-service.openapi.json`.
enum NightServiceDocuments {
    /// `POST /v1/sessions`'s body.
    struct NewSession: Decodable {
        var userId: String
        var startTime: Date
    }

    /// The answer to `POST /v1/sessions`.
    struct Created: Encodable {
        var schemaVersion = SleepAnalysisJSON.schemaVersion
        var sessionId: UUID
    }

    /// One chunk stored (or found already stored).
    struct ChunkStored: Encodable {
        var schemaVersion = SleepAnalysisJSON.schemaVersion
        var sessionId: UUID
        var kind: NightChunkKind
        var sequence: Int
        var bytes: Int64
        /// `created`, or `unchanged` when the same chunk was already stored.
        var outcome: String
    }

    /// A chunk that a session lacks: a sequence number below its highest that never arrived.
    struct MissingChunk: Encodable, Hashable {
        var kind: NightChunkKind
        var sequence: Int
    }

    /// Chunks received, per kind.
    struct ChunkCounts: Encodable {
        var audio = 0
        var accelerometer = 0
        var heartRate = 0
    }

    /// A session: `GET /v1/sessions/{id}`, and the answer to `finish`.
    struct Session: Encodable {
        var schemaVersion = SleepAnalysisJSON.schemaVersion
        var sessionId: UUID
        var userId: String
        var startTime: Date
        /// `uploading`, `queued`, `analysing`, `done` or `failed`.
        var state: String
        var chunks: ChunkCounts
        var missing: [MissingChunk]
        /// The analysis session's id (`AnalysisResult.sessionId`), once done.
        var analysisSessionId: UUID?
        /// Why the analysis failed, when it did.
        var failure: String?
    }

    /// An error body.
    struct Failure: Encodable {
        var schemaVersion = SleepAnalysisJSON.schemaVersion
        var error: String
        var message: String
    }

    /// `GET /healthz`.
    struct Health: Encodable {
        var schemaVersion = SleepAnalysisJSON.schemaVersion
        var status: String
    }

    /// A JSON response of `value`.
    static func response(_ status: Int, _ value: some Encodable) -> HTTPResponse {
        guard let body = try? SleepAnalysisJSON.encode(value) else { return .text(500, "Internal server error") }
        return .json(status, body + Data("\n".utf8))
    }

    /// An error to throw from a handler: status, a stable code and a message.
    static func failure(_ status: Int, _ code: String, _ message: String) -> HTTPResponseError {
        HTTPResponseError(response(status, Failure(error: code, message: message)))
    }
}
