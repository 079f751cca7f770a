import Foundation
import SleepAnalysis

extension NightServiceCore {
    /// `PUT /v1/sessions/{id}/{kind}/{sequence}` once its header fields arrived: checks the key, the session and
    /// the sequence number before a byte of the chunk is read, then streams the chunk to a file.
    func chunkIntake(_ request: HTTPRequest, kind: NightChunkKind) throws -> HTTPBodyIntake {
        let tenant = try tenant(of: request)
        guard let text = request.pathParameters["sequence"], let sequence = Int(text), sequence >= 0,
            text.allSatisfy(\.isASCII)
        else {
            throw NightServiceDocuments.failure(400, "bad-request", "the sequence number must be an integer from 0")
        }
        guard sequence < configuration.maximumChunksPerSession else {
            throw NightServiceDocuments.failure(
                409, "too-many-chunks",
                "a session holds at most \(configuration.maximumChunksPerSession) chunks of a kind (0...\(configuration.maximumChunksPerSession - 1))"
            )
        }
        let session = try run { connection in try self.session(request, tenant: tenant, connection: connection) }
        guard session.jobId == nil else {
            throw NightServiceDocuments.failure(409, "finished", "the session is finished: it takes no more chunks")
        }
        return .receive(
            try NightChunkSink(core: self, tenant: tenant, session: session.id, kind: kind, sequence: sequence))
    }
}

/// One chunk on its way to the chunk directory: written to a hidden temporary file as it arrives, checked when
/// complete (an audio file that decodes, of the session's sample rate; UTF-8 text for CSV), then stored under
/// its sequence number and recorded, or found identical to the chunk already stored (idempotent), or refused.
final class NightChunkSink: HTTPRequestBodySink {
    private let core: NightServiceCore
    private let tenant: String
    private let session: UUID
    private let kind: NightChunkKind
    private let sequence: Int
    private let directory: URL
    private let temporary: URL
    private let handle: FileHandle
    private var bytes: Int64 = 0

    init(core: NightServiceCore, tenant: String, session: UUID, kind: NightChunkKind, sequence: Int) throws {
        self.core = core
        self.tenant = tenant
        self.session = session
        self.kind = kind
        self.sequence = sequence
        directory = core.chunkDirectory(session: session, kind: kind)
        temporary = directory.appendingPathComponent(".incoming-\(UUID().uuidString)")
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            guard FileManager.default.createFile(atPath: temporary.path, contents: nil) else {
                throw CocoaError(.fileWriteUnknown)
            }
            handle = try FileHandle(forWritingTo: temporary)
        } catch {
            throw SleepCycleSdkError.storageFailure("cannot create \(temporary.path): \(error.localizedDescription)")
        }
    }

    func write(_ part: UnsafeRawBufferPointer) throws {
        bytes += Int64(part.count)
        try handle.write(contentsOf: Data(part))
    }

    func cancel() {
        try? handle.close()
        try? FileManager.default.removeItem(at: temporary)
    }

    func finish() throws -> HTTPResponse {
        do {
            try handle.close()
            let fileExtension = try check()
            return try store(fileExtension: fileExtension)
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            throw error
        }
    }

    /// The chunk's file extension once its content is checked, and that it matches the session's audio.
    ///
    /// - Throws: `HTTPResponseError` as `NightChunkCheck.fileExtension(kind:file:)`, and 422 for audio of another
    ///   sample rate or channel count than the session's earlier chunks.
    private func check() throws -> String {
        guard bytes > 0 else { throw NightServiceDocuments.failure(400, "empty-chunk", "the chunk is empty") }
        let fileExtension = try NightChunkCheck.fileExtension(kind: kind, file: temporary)
        guard kind == .audio, let reader = try? AudioFileReader(url: temporary) else { return fileExtension }
        if let other = try? FileManager.default.contentsOfDirectory(atPath: directory.path)
            .first(where: { NightChunkDirectory.sequence(ofFileName: $0) != nil }),
            let earlier = try? AudioFileReader(url: directory.appendingPathComponent(other)),
            earlier.sampleRate != reader.sampleRate || earlier.channelCount != reader.channelCount
        {
            throw NightServiceDocuments.failure(
                422, "invalid-chunk",
                "the chunk is \(Int(reader.sampleRate)) Hz with \(reader.channelCount) channel(s); the session's audio "
                    + "is \(Int(earlier.sampleRate)) Hz with \(earlier.channelCount)")
        }
        return fileExtension
    }

    /// Moves the checked chunk in place and records it, under the session's row lock.
    private func store(fileExtension: String) throws -> HTTPResponse {
        let name = NightChunkDirectory.fileName(sequence: sequence, fileExtension: fileExtension)
        let final = directory.appendingPathComponent(name)
        let (core, tenant, session, kind, sequence, temporary, bytes) = (
            core, tenant, session, kind, sequence, temporary, bytes
        )
        let outcome = try core.run { connection in
            try connection.transaction { connection -> String in
                let state = try connection.execute(
                    "SELECT job_id FROM night_service_sessions WHERE id = $1::uuid AND tenant = $2 FOR UPDATE",
                    [session.uuidString, tenant]
                ).rows.first
                guard let state else {
                    // Erased meanwhile (DELETE of its user): nothing of the session may stay behind.
                    try? FileManager.default.removeItem(at: core.sessionDirectory(session))
                    throw NightServiceDocuments.failure(404, "not-found", "no such session")
                }
                guard state[0] == nil else {
                    throw NightServiceDocuments.failure(
                        409, "finished", "the session is finished: it takes no more chunks")
                }
                let existing = try connection.execute(
                    "SELECT file_name FROM night_service_chunks WHERE session_id = $1::uuid AND kind = $2 AND sequence = $3::integer",
                    [session.uuidString, kind.rawValue, String(sequence)]
                ).rows.first
                if let existing {
                    let stored = core.chunkDirectory(session: session, kind: kind).appendingPathComponent(
                        try existing.text(0))
                    guard NightChunkSink.sameContents(stored, temporary) else {
                        throw NightServiceDocuments.failure(
                            409, "chunk-conflict", "chunk \(sequence) was already stored with other contents")
                    }
                    try? FileManager.default.removeItem(at: temporary)
                    return "unchanged"
                }
                guard rename(temporary.path, final.path) == 0 else {
                    throw SleepCycleSdkError.storageFailure("cannot store the chunk as \(final.path)")
                }
                do {
                    try connection.execute(
                        """
                        INSERT INTO night_service_chunks (session_id, kind, sequence, file_name, bytes)
                        VALUES ($1::uuid, $2, $3::integer, $4, $5::bigint)
                        """, [session.uuidString, kind.rawValue, String(sequence), name, String(bytes)])
                } catch {
                    try? FileManager.default.removeItem(at: final)
                    throw error
                }
                return "created"
            }
        }
        return NightServiceDocuments.response(
            outcome == "created" ? 201 : 200,
            NightServiceDocuments.ChunkStored(
                sessionId: session, kind: kind, sequence: sequence, bytes: bytes, outcome: outcome))
    }

    /// Whether two files hold the same bytes (read in blocks).
    static func sameContents(_ first: URL, _ second: URL) -> Bool {
        guard let a = try? FileHandle(forReadingFrom: first), let b = try? FileHandle(forReadingFrom: second) else {
            return false
        }
        defer {
            try? a.close()
            try? b.close()
        }
        while true {
            let left = (try? a.read(upToCount: 1 << 20)) ?? nil
            let right = (try? b.read(upToCount: 1 << 20)) ?? nil
            if left != right { return (left ?? Data()).isEmpty && (right ?? Data()).isEmpty }
            if left == nil || left?.isEmpty == true { return true }
        }
    }
}

/// What the service takes as a chunk, checked on the complete file before it is stored: for the sink and for the
/// fuzz harness of the chunk intake.
package enum NightChunkCheck {
    /// The extension a chunk is stored under, once its content is checked: an audio chunk is a WAV (`RIFF` or
    /// `RF64`), FLAC or Ogg file that decodes to its end; a CSV chunk is UTF-8 text without NUL bytes.
    ///
    /// - Parameters:
    ///   - kind: The chunk's kind.
    ///   - file: The received chunk.
    /// - Returns: `wav`, `flac`, `ogg` or `csv`.
    /// - Throws: `HTTPResponseError`: 400 for an empty chunk, 415 for audio in another format, 422 for audio that
    ///   does not decode or text that is not UTF-8.
    package static func fileExtension(kind: NightChunkKind, file: URL) throws -> String {
        let head = (try? FileHandle(forReadingFrom: file)).flatMap { handle in
            defer { try? handle.close() }
            return try? handle.read(upToCount: 4)
        }
        guard let head, !head.isEmpty else {
            throw NightServiceDocuments.failure(400, "empty-chunk", "the chunk is empty")
        }
        guard kind == .audio else {
            guard let data = try? Data(contentsOf: file), String(data: data, encoding: .utf8) != nil, !data.contains(0)
            else { throw NightServiceDocuments.failure(422, "invalid-chunk", "a CSV chunk must be UTF-8 text") }
            return "csv"
        }
        let fileExtension: String
        switch head {
        case Data("RIFF".utf8), Data("RF64".utf8): fileExtension = "wav"
        case Data("fLaC".utf8): fileExtension = "flac"
        case Data("OggS".utf8): fileExtension = "ogg"
        default:
            throw NightServiceDocuments.failure(
                415, "unsupported-audio", "audio chunks are WAV, FLAC or Ogg Opus files")
        }
        do {
            let reader = try AudioFileReader(url: file)
            while try reader.read(maxFrames: 65_536) != nil {}
        } catch {
            throw NightServiceDocuments.failure(422, "invalid-chunk", "the audio chunk does not decode")
        }
        return fileExtension
    }
}
