import Foundation
import TestSupport

/// Runs the real `curl` (Debian's) against a server on 127.0.0.1 and returns what it got.
struct Curl {
    /// One exchange as curl saw it.
    struct Reply {
        /// The status code (0 when curl got no response).
        var status: Int
        /// The response's header fields, names lower-cased (the last response's when curl followed several).
        var headers: [String: String]
        /// The body.
        var body: Data
        /// curl's exit status (0: a response arrived; 7: could not connect; 28: timed out).
        var exitStatus: Int32
        /// What curl printed on standard error.
        var errorOutput: String

        /// The body as UTF-8 text.
        var text: String { String(decoding: body, as: UTF8.self) }
    }

    /// The server's base URL, `http://127.0.0.1:PORT`.
    var base: String

    init(port: UInt16) { base = "http://127.0.0.1:\(port)" }

    /// Runs one request.
    ///
    /// - Parameters:
    ///   - method: The method (`-X`).
    ///   - path: The path and query.
    ///   - headers: Extra header fields, `Name: value`.
    ///   - bodyFile: A file sent as the body (`--data-binary @file`).
    ///   - body: Bytes sent as the body (written to a temporary file first).
    ///   - extra: More curl arguments.
    ///   - timeout: curl's `--max-time`.
    func request(
        _ method: String, _ path: String, headers: [String] = [], bodyFile: URL? = nil, body: Data? = nil,
        extra: [String] = [], timeout: Int = 30
    ) throws -> Reply {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("sa-curl-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let bodyOut = scratch.appendingPathComponent("body")
        let headersOut = scratch.appendingPathComponent("headers")
        var arguments = [
            "-sS", "-X", method, "--max-time", String(timeout), "-o", bodyOut.path, "-D", headersOut.path, "-w",
            "%{http_code}",
        ]
        for header in headers { arguments += ["-H", header] }
        if let body {
            let file = scratch.appendingPathComponent("upload")
            try body.write(to: file)
            arguments += ["--data-binary", "@" + file.path]
        } else if let bodyFile {
            arguments += ["--data-binary", "@" + bodyFile.path]
        }
        arguments += extra
        arguments.append(base + path)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
        process.arguments = arguments
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let code = output.fileHandleForReading.readDataToEndOfFile()
        let errorText = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        var fields: [String: String] = [:]
        if let text = try? String(contentsOf: headersOut, encoding: .utf8) {
            for line in text.split(whereSeparator: \.isNewline) {
                if line.hasPrefix("HTTP/") {
                    fields = [:]
                    continue
                }
                guard let colon = line.firstIndex(of: ":") else { continue }
                fields[line[..<colon].lowercased()] = line[line.index(after: colon)...]
                    .trimmingCharacters(in: .whitespaces)
            }
        }
        return Reply(
            status: Int(String(decoding: code, as: UTF8.self)) ?? 0, headers: fields,
            body: (try? Data(contentsOf: bodyOut)) ?? Data(), exitStatus: process.terminationStatus,
            errorOutput: String(decoding: errorText, as: UTF8.self))
    }
}
