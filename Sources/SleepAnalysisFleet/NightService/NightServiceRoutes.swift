import Foundation
import SleepAnalysis

/// The routes of the night service (paths are the contract: `Schemas/night-service.openapi.json`).
extension NightServiceCore {
    /// A session row as the handlers need it.
    struct SessionRow {
        var id: UUID
        var userId: String
        var startTime: Date
        var jobId: Int64?
        var jobState: String?
        var lastError: String?
    }

    func router() -> HTTPRouter {
        var routes: [HTTPRoute] = [
            .respond(.get, "/healthz") { [self] _ in health() },
            .respond(.post, "/v1/sessions", maximumBodyBytes: 16 * 1024) { [self] in try createSession($0) },
            .respond(.post, "/v1/sessions/{id}/finish") { [self] in try finish($0) },
            .respond(.get, "/v1/sessions/{id}") { [self] in try sessionState($0) },
            .respond(.get, "/v1/sessions/{id}/result") { [self] in try result($0, html: false) },
            .respond(.get, "/v1/sessions/{id}/report") { [self] in try result($0, html: true) },
            .respond(.get, "/v1/users/{userId}/nights") { [self] in try nights($0) },
            .respond(.delete, "/v1/users/{userId}") { [self] in try deleteUser($0) },
        ]
        for kind in NightChunkKind.allCases {
            routes.append(
                .stream(
                    .put, "/v1/sessions/{id}/\(kind.rawValue)/{sequence}",
                    maximumBodyBytes: configuration.maximumChunkBytes
                ) {
                    [self] request in try chunkIntake(request, kind: kind)
                })
        }
        var router = HTTPRouter(routes + configuration.additionalRoutes) { [logger] error, request in
            logger.error("\(request.method.rawValue) \(request.path): \(error)")
            // An outage, or a database that refuses the service's login (dropped, or its role changed): the
            // client's request was fine and may be sent again later.
            if let error = error as? FleetDatabaseError, error.isTransient || error.kind == .authentication {
                return NightServiceDocuments.failure(503, "unavailable", "the database is unavailable").response
            }
            return NightServiceDocuments.failure(500, "internal", "internal error").response
        }
        router.tooLargeResponse = { limit in
            NightServiceDocuments.failure(413, "too-large", "a chunk may hold at most \(limit) bytes").response
        }
        return router
    }

    // MARK: - Authentication and limits

    /// The tenant of the request's Bearer key, after taking a token of its rate limit.
    ///
    /// - Throws: `HTTPResponseError` 401 without a valid key, 429 over the tenant's rate.
    func tenant(of request: HTTPRequest) throws -> String {
        guard let header = request.header("authorization"), header.lowercased().hasPrefix("bearer ") else {
            throw unauthorised("an Authorization: Bearer <licence key> header is required")
        }
        let key = header.dropFirst("bearer ".count).trimmingCharacters(in: .whitespaces)
        let licence: License
        do {
            licence = try verifier.verify(key)
        } catch {
            throw unauthorised("the licence key is not valid")
        }
        if let wait = limiter.take(licence.subject) {
            var response = NightServiceDocuments.failure(429, "rate-limited", "too many requests").response
            response.headers["Retry-After"] = String(max(1, Int(wait.rounded(.up))))
            throw HTTPResponseError(response)
        }
        return licence.subject
    }

    private func unauthorised(_ message: String) -> HTTPResponseError {
        var response = NightServiceDocuments.failure(401, "unauthorised", message).response
        response.headers["WWW-Authenticate"] = "Bearer"
        return HTTPResponseError(response)
    }

    // MARK: - Sessions

    private func health() -> HTTPResponse {
        do {
            try run { connection in _ = try connection.execute("SELECT 1") }
            return NightServiceDocuments.response(200, NightServiceDocuments.Health(status: "ok"))
        } catch {
            return NightServiceDocuments.response(503, NightServiceDocuments.Health(status: "database unavailable"))
        }
    }

    private func createSession(_ request: HTTPRequest) throws -> HTTPResponse {
        let tenant = try tenant(of: request)
        let body: NightServiceDocuments.NewSession
        do {
            body = try SleepAnalysisJSON.makeDecoder().decode(NightServiceDocuments.NewSession.self, from: request.body)
        } catch {
            throw NightServiceDocuments.failure(
                400, "bad-request", "the body must be {\"userId\": \"…\", \"startTime\": \"ISO 8601\"}")
        }
        guard !body.userId.isEmpty, body.userId.utf8.count <= 256 else {
            throw NightServiceDocuments.failure(400, "bad-request", "userId must be 1 to 256 bytes")
        }
        let id = UUID()
        try run { connection in
            try connection.execute(
                "INSERT INTO night_service_sessions (id, tenant, user_id, start_time) VALUES ($1::uuid, $2, $3, to_timestamp($4::float8))",
                [id.uuidString, tenant, body.userId, PostgresParameters.seconds(body.startTime)])
        }
        var response = NightServiceDocuments.response(201, NightServiceDocuments.Created(sessionId: id))
        response.headers["Location"] = "/v1/sessions/\(id.uuidString)"
        return response
    }

    /// The session of the request's `{id}` if it belongs to `tenant`.
    ///
    /// - Throws: `HTTPResponseError` 404 when there is none (or it is another tenant's).
    func session(
        _ request: HTTPRequest, tenant: String, connection: PostgresConnection, lock: Bool = false
    ) throws
        -> SessionRow
    {
        guard let text = request.pathParameters["id"], let id = UUID(uuidString: text) else {
            throw NightServiceDocuments.failure(404, "not-found", "no such session")
        }
        let row = try connection.execute(
            """
            SELECT s.user_id, extract(epoch FROM s.start_time), s.job_id, j.state, j.last_error
            FROM night_service_sessions s LEFT JOIN night_jobs j ON j.id = s.job_id
            WHERE s.id = $1::uuid AND s.tenant = $2
            """ + (lock ? " FOR UPDATE OF s" : ""), [id.uuidString, tenant]
        ).rows.first
        guard let row else { throw NightServiceDocuments.failure(404, "not-found", "no such session") }
        return SessionRow(
            id: id, userId: try row.text(0), startTime: try row.date(1),
            jobId: try row[2].map { _ in try row.int64(2) },
            jobState: row[3], lastError: row[4])
    }

    private func finish(_ request: HTTPRequest) throws -> HTTPResponse {
        let tenant = try tenant(of: request)
        let (maximumAttempts, core) = (configuration.maximumAttempts, self)
        let document = try run { connection in
            try connection.transaction { connection -> NightServiceDocuments.Session in
                let session = try core.session(request, tenant: tenant, connection: connection, lock: true)
                if session.jobId != nil { return try core.document(session, connection: connection) }
                let document = try core.document(session, connection: connection)
                guard document.chunks.audio > 0 else {
                    throw NightServiceDocuments.failure(409, "no-audio", "the session has no audio chunk")
                }
                guard document.missing.isEmpty else {
                    let list = document.missing.prefix(20).map { "\($0.kind.rawValue) \($0.sequence)" }
                    throw NightServiceDocuments.failure(
                        409, "missing-chunks", "chunks are missing: " + list.joined(separator: ", "))
                }
                let directory = { (kind: NightChunkKind) in core.chunkDirectory(session: session.id, kind: kind).path }
                let row = try connection.execute(
                    """
                    INSERT INTO night_jobs (subject_id, audio_path, accelerometer_path, heart_rate_path, start_time,
                        max_attempts)
                    VALUES ($1, $2, $3, $4, to_timestamp($5::float8), $6::integer) RETURNING id
                    """,
                    [
                        NightServiceCore.subject(tenant: tenant, user: session.userId), directory(.audio),
                        document.chunks.accelerometer > 0 ? directory(.accelerometer) : nil,
                        document.chunks.heartRate > 0 ? directory(.heartRate) : nil,
                        PostgresParameters.seconds(session.startTime), String(max(1, maximumAttempts)),
                    ]
                ).rows.first
                guard let jobId = try row?.int64(0) else {
                    throw FleetDatabaseError(kind: .unexpectedResult, message: "INSERT returned no job id")
                }
                try connection.execute(
                    "UPDATE night_service_sessions SET job_id = $1, finished_at = now() WHERE id = $2::uuid",
                    [String(jobId), session.id.uuidString])
                try connection.notify(NightQueueSchema.channel, payload: String(jobId))
                var finished = session
                finished.jobId = jobId
                finished.jobState = "queued"
                return try core.document(finished, connection: connection)
            }
        }
        logger.info("session \(document.sessionId) of tenant \(tenant) finished: \(document.state)")
        return NightServiceDocuments.response(202, document)
    }

    private func sessionState(_ request: HTTPRequest) throws -> HTTPResponse {
        let tenant = try tenant(of: request)
        let document = try run { connection in
            try self.document(try self.session(request, tenant: tenant, connection: connection), connection: connection)
        }
        return NightServiceDocuments.response(200, document)
    }

    /// The session document: state, chunk counts and gaps.
    func document(_ session: SessionRow, connection: PostgresConnection) throws -> NightServiceDocuments.Session {
        var counts = NightServiceDocuments.ChunkCounts()
        var missing: [NightServiceDocuments.MissingChunk] = []
        let rows = try connection.execute(
            "SELECT kind, sequence FROM night_service_chunks WHERE session_id = $1::uuid ORDER BY kind, sequence",
            [session.id.uuidString]
        ).rows
        var byKind: [NightChunkKind: [Int]] = [:]
        for row in rows {
            guard let kind = NightChunkKind(rawValue: try row.text(0)) else { continue }
            byKind[kind, default: []].append(Int(try row.int64(1)))
        }
        for kind in NightChunkKind.allCases {
            let sequences = byKind[kind] ?? []
            switch kind {
            case .audio: counts.audio = sequences.count
            case .accelerometer: counts.accelerometer = sequences.count
            case .heartRate: counts.heartRate = sequences.count
            }
            guard let highest = sequences.last, highest + 1 > sequences.count else { continue }
            let present = Set(sequences)
            for sequence in 0..<highest where !present.contains(sequence) {
                missing.append(NightServiceDocuments.MissingChunk(kind: kind, sequence: sequence))
            }
        }
        var analysisSession: UUID?
        if session.jobState == "done", let jobId = session.jobId {
            analysisSession = try connection.execute(
                "SELECT session_id FROM night_results WHERE job_id = $1", [String(jobId)]
            ).rows.first?.uuid(0)
        }
        let state: String =
            switch session.jobState {
            case nil: session.jobId == nil ? "uploading" : "failed"
            case "queued": "queued"
            case "running": "analysing"
            case "done": "done"
            default: "failed"
            }
        return NightServiceDocuments.Session(
            sessionId: session.id, userId: session.userId, startTime: session.startTime, state: state, chunks: counts,
            missing: missing, analysisSessionId: analysisSession,
            failure: state == "failed" ? (session.lastError ?? session.jobState.map { "the job was \($0)" }) : nil)
    }

    private func result(_ request: HTTPRequest, html: Bool) throws -> HTTPResponse {
        let tenant = try tenant(of: request)
        let (session, text) = try run { connection -> (SessionRow, String?) in
            let session = try self.session(request, tenant: tenant, connection: connection)
            guard let jobId = session.jobId else { return (session, nil) }
            let text = try connection.execute(
                "SELECT result::text FROM night_results WHERE job_id = $1", [String(jobId)]
            ).rows.first?.text(0)
            return (session, text)
        }
        guard let text else {
            let state =
                session.jobId == nil
                ? "uploading" : session.jobState == "running" ? "analysing" : session.jobState ?? "failed"
            throw NightServiceDocuments.failure(
                409, "not-analysed",
                "the session has no result: it is \(state)"
                    + (session.lastError.map { " (\($0))" } ?? ""))
        }
        let result = try PersistenceCoding.decode(
            AnalysisResult.self, from: Data(text.utf8), what: "the result of session \(session.id)")
        let score = SleepScoring.score(result: result)
        if html {
            let page = NightReportHTML.render([NightReportHTML.Night(result: result, score: score)])
            return HTTPResponse(
                status: 200, headers: ["Content-Type": "text/html; charset=utf-8"], body: Data(page.utf8))
        }
        let body = try SleepAnalysisJSON.encode(AnalysisResultDocument(result: result, score: score))
        return .json(200, body + Data("\n".utf8))
    }

    // MARK: - Users

    private func nights(_ request: HTTPRequest) throws -> HTTPResponse {
        let tenant = try tenant(of: request)
        let user = request.pathParameters["userId"] ?? ""
        func bound(_ name: String, _ fallback: Date) throws -> Date {
            guard let text = request.query[name], !text.isEmpty else { return fallback }
            guard let date = SleepAnalysisJSON.date(text) else {
                throw NightServiceDocuments.failure(400, "bad-request", "\(name) must be an ISO 8601 instant")
            }
            return date
        }
        let from = try bound("from", Date(timeIntervalSince1970: 0))
        let to = try bound("to", Date(timeIntervalSince1970: 4_102_444_800))
        let texts = try run { connection -> [String] in
            try connection.execute(
                """
                SELECT r.result::text FROM night_service_sessions s JOIN night_results r ON r.job_id = s.job_id
                WHERE s.tenant = $1 AND s.user_id = $2 AND s.start_time >= to_timestamp($3::float8)
                    AND s.start_time < to_timestamp($4::float8)
                ORDER BY s.start_time, s.id
                """,
                [tenant, user, PostgresParameters.seconds(from), PostgresParameters.seconds(to)]
            ).rows.map { try $0.text(0) }
        }
        let nights = try texts.map { text in
            StoredNight(
                result: try PersistenceCoding.decode(AnalysisResult.self, from: Data(text.utf8), what: "a stored night")
            )
        }
        let body = try SleepAnalysisJSON.encode(NightHistoryDocument(nights))
        return .json(200, body + Data("\n".utf8))
    }

    private func deleteUser(_ request: HTTPRequest) throws -> HTTPResponse {
        let tenant = try tenant(of: request)
        let user = request.pathParameters["userId"] ?? ""
        let subject = NightServiceCore.subject(tenant: tenant, user: user)
        let sessions = try run { connection in
            try connection.transaction { connection -> [UUID] in
                let rows = try connection.execute(
                    "SELECT id, job_id FROM night_service_sessions WHERE tenant = $1 AND user_id = $2 FOR UPDATE",
                    [tenant, user]
                ).rows
                let jobs = "{" + rows.compactMap { $0[1] }.joined(separator: ",") + "}"
                try connection.execute("DELETE FROM night_jobs WHERE id = ANY($1::bigint[])", [jobs])
                try connection.execute("DELETE FROM night_jobs WHERE subject_id = $1", [subject])
                try connection.execute("DELETE FROM session_nights WHERE subject_id = $1", [subject])
                try connection.execute("DELETE FROM session_tombstones WHERE subject_id = $1", [subject])
                try connection.execute("DELETE FROM session_store_subjects WHERE subject_id = $1", [subject])
                try connection.execute(
                    "DELETE FROM night_service_sessions WHERE tenant = $1 AND user_id = $2", [tenant, user])
                return try rows.map { try $0.uuid(0) }
            }
        }
        guard !sessions.isEmpty else { throw NightServiceDocuments.failure(404, "not-found", "no such user") }
        for session in sessions { try? FileManager.default.removeItem(at: sessionDirectory(session)) }
        logger.info("user of tenant \(tenant) erased: \(sessions.count) session(s)")
        return HTTPResponse(status: 204)
    }
}
