import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A tiny HTTP/1.1 file server on 127.0.0.1 for tests (no network needed): serves files from a dictionary,
/// honours `Range: bytes=N-` (and `If-Range` against the `ETag` it gives each version of a file), records every
/// request, and can inject faults (a status code, or a connection
/// dropped after some body bytes). One connection at a time, `Connection: close`; it stops itself after
/// `lifetime` seconds or `maximumRequests` requests, and on `stop()` or deinit.
public final class LoopbackHTTPServer: @unchecked Sendable {
    /// A failure to inject into the next response(s) for a path.
    public enum Fault: Sendable, Hashable {
        /// Answer with this status and an empty body.
        case status(Int)
        /// Send the headers of the full response, then only this many body bytes, then close the connection.
        case dropAfter(bytes: Int)
        /// Send the headers of the full response and this many body bytes, then nothing for `seconds` (a stalled
        /// server), then close the connection.
        case stallAfter(bytes: Int, seconds: TimeInterval)
    }

    /// One request the server received.
    public struct Request: Sendable, Hashable {
        /// `GET`, `HEAD`, ...
        public let method: String
        /// The request path, e.g. `/manifest.json`.
        public let path: String
        /// Headers, names lower-cased.
        public let headers: [String: String]
        /// The `Range` header, if any.
        public var range: String? { headers["range"] }
    }

    /// The port the server listens on.
    public let port: UInt16
    /// `http://127.0.0.1:<port>`.
    public var baseURL: URL { URL(string: "http://127.0.0.1:\(port)")! }

    private let lock = NSLock()
    private let listener: Int32
    private var files: [String: Data]
    private var versions: [String: Int] = [:]
    private var faults: [String: [Fault]] = [:]
    private var recorded: [Request] = []
    private var bodyBytes = 0
    private var stopped = false
    private var rangeSupport = true
    private let finished = DispatchSemaphore(value: 0)
    private let deadline: Date
    private let maximumRequests: Int

    /// Starts a server.
    ///
    /// - Parameters:
    ///   - files: Bodies by path (`/manifest.json`).
    ///   - lifetime: Seconds after which it stops by itself.
    ///   - maximumRequests: Requests after which it stops by itself.
    /// - Throws: An `NSError` with the `errno` if the socket cannot be set up.
    public init(files: [String: Data] = [:], lifetime: TimeInterval = 60, maximumRequests: Int = 500) throws {
        self.files = files
        self.deadline = Date().addingTimeInterval(lifetime)
        self.maximumRequests = maximumRequests
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Self.posixError("socket") }
        var reuse: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &reuse, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0, listen(fd, 16) == 0 else {
            close(fd)
            throw Self.posixError("bind/listen")
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard named == 0 else {
            close(fd)
            throw Self.posixError("getsockname")
        }
        self.listener = fd
        self.port = UInt16(bigEndian: address.sin_port)
        let thread = Thread { [self] in serve() }
        thread.name = "LoopbackHTTPServer"
        thread.start()
    }

    deinit { stop() }

    /// Serves `data` at `path` from now on (as a new version: a new `ETag`).
    public func setFile(_ path: String, _ data: Data) {
        lock.lock()
        files[path] = data
        versions[path, default: 0] += 1
        lock.unlock()
    }

    /// The `ETag` the file at `path` is served with.
    public func entityTag(_ path: String) -> String {
        lock.lock()
        defer { lock.unlock() }
        return "\"v\(versions[path, default: 0])-\(files[path]?.count ?? 0)\""
    }

    /// Makes the next `times` requests for `path` fail with `fault`.
    public func inject(_ fault: Fault, forPath path: String, times: Int = 1) {
        lock.lock()
        faults[path, default: []].append(contentsOf: Array(repeating: fault, count: times))
        lock.unlock()
    }

    /// Whether `Range` headers are honoured (default true); when false the whole file is sent with status 200,
    /// as servers without range support do.
    public var honoursRange: Bool {
        get {
            lock.lock()
            defer { lock.unlock() }
            return rangeSupport
        }
        set {
            lock.lock()
            rangeSupport = newValue
            lock.unlock()
        }
    }

    /// Every request received so far, in order.
    public var requests: [Request] {
        lock.lock()
        defer { lock.unlock() }
        return recorded
    }

    /// The body bytes sent so far, over all responses.
    public var bodyBytesSent: Int {
        lock.lock()
        defer { lock.unlock() }
        return bodyBytes
    }

    /// Stops serving and waits for the server thread to end (idempotent).
    public func stop() {
        lock.lock()
        let wasStopped = stopped
        stopped = true
        lock.unlock()
        if !wasStopped { finished.wait() }
    }

    // MARK: - Serving

    private func serve() {
        defer {
            close(listener)
            finished.signal()
        }
        while true {
            lock.lock()
            let done = stopped || Date() >= deadline || recorded.count >= maximumRequests
            lock.unlock()
            if done { return }
            var poller = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 50) > 0 else { continue }
            let client = accept(listener, nil, nil)
            guard client >= 0 else { continue }
            handle(client)
            close(client)
        }
    }

    private func handle(_ client: Int32) {
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(client, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(client, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        guard let request = readRequest(client) else { return }
        lock.lock()
        recorded.append(request)
        let body = files[request.path]
        let fault = faults[request.path]?.isEmpty == false ? faults[request.path]!.removeFirst() : nil
        lock.unlock()
        let tag = entityTag(request.path)

        if case .status(let status)? = fault {
            sendAll(client, Data("HTTP/1.1 \(status) Injected\r\nContent-Length: 0\r\nConnection: close\r\n\r\n".utf8))
            return
        }
        guard let body else {
            sendAll(client, Data("HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n".utf8))
            return
        }
        var start = 0
        var status = "200 OK"
        var extra = ""
        let unchanged = request.headers["if-range"].map { $0 == tag } ?? true
        if honoursRange, unchanged, let range = request.range, range.hasPrefix("bytes="),
            let first = Int(range.dropFirst(6).prefix { $0.isNumber })
        {
            guard first < body.count else {
                let answer =
                    "HTTP/1.1 416 Range Not Satisfiable\r\nContent-Range: bytes */\(body.count)\r\n"
                    + "Content-Length: 0\r\nConnection: close\r\n\r\n"
                sendAll(client, Data(answer.utf8))
                return
            }
            start = first
            status = "206 Partial Content"
            extra = "Content-Range: bytes \(first)-\(body.count - 1)/\(body.count)\r\n"
        }
        let slice = body.subdata(in: start..<body.count)
        let header =
            "HTTP/1.1 \(status)\r\nContent-Length: \(slice.count)\r\nContent-Type: application/octet-stream\r\n"
            + extra + "ETag: \(tag)\r\nAccept-Ranges: bytes\r\nConnection: close\r\n\r\n"
        guard sendAll(client, Data(header.utf8)) else { return }
        if request.method == "HEAD" { return }
        var toSend = slice
        switch fault {
        case .dropAfter(let bytes)?, .stallAfter(let bytes, _)?: toSend = slice.prefix(max(0, min(bytes, slice.count)))
        default: break
        }
        let sent = sendAll(client, toSend) ? toSend.count : 0
        lock.lock()
        bodyBytes += sent
        lock.unlock()
        if case .stallAfter(_, let seconds)? = fault { Thread.sleep(forTimeInterval: seconds) }
        if fault != nil { shutdown(client, Int32(SHUT_RDWR)) }
    }

    private func readRequest(_ client: Int32) -> Request? {
        var buffer = [UInt8](repeating: 0, count: 4096)
        var received = Data()
        let terminator = Data("\r\n\r\n".utf8)
        while received.range(of: terminator) == nil {
            guard received.count < 32_768 else { return nil }
            let count = recv(client, &buffer, buffer.count, 0)
            guard count > 0 else { return nil }
            received.append(contentsOf: buffer[0..<count])
        }
        let text = String(decoding: received, as: UTF8.self)
        let lines = text.components(separatedBy: "\r\n")
        let parts = lines[0].split(separator: " ")
        guard parts.count >= 2 else { return nil }
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(
                in: .whitespaces)
        }
        return Request(method: String(parts[0]), path: String(parts[1]), headers: headers)
    }

    @discardableResult
    private func sendAll(_ client: Int32, _ data: Data) -> Bool {
        data.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let count = send(client, raw.baseAddress! + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
                guard count > 0 else { return false }
                offset += count
            }
            return true
        }
    }

    private static func posixError(_ call: String) -> NSError {
        NSError(domain: NSPOSIXErrorDomain, code: Int(errno), userInfo: [NSLocalizedDescriptionKey: "\(call) failed"])
    }
}
