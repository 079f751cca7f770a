import Foundation
import SleepAnalysis
import SleepAnalysisFleet

/// The night service's router and chunk intake. The input's first line is `METHOD TARGET` (a request line
/// without the version), the rest a request body. The target is parsed (`HTTPRequestTarget`) and routed through
/// the service's own routes; a `PUT` of a chunk runs the intake's check on the body (`NightChunkCheck`) and, when
/// it takes the chunk, the worker's assembly of a one-chunk night (`NightChunkDirectory.assemble`), which must
/// then succeed. Rejections must be the documented 4xx responses; a target that does not parse or route is
/// rejected too.
enum NightServiceHarness {
    /// The service's routes, over a scratch chunk directory and a database address never connected to.
    private static let router: HTTPRouter = {
        do {
            return try NightService.router(
                configuration: NightServiceConfiguration(
                    chunkDirectory: ScratchDirectory.url.appendingPathComponent("night-service-chunks")),
                address: FleetDatabaseAddress("host=/nonexistent"))
        } catch {
            fatalError("cannot make the night service's router: \(error)")
        }
    }()

    /// The harness.
    static let harness = FuzzHarness(
        name: "night-service", summary: "the night service's router (request line) and chunk intake (body)"
    ) { bytes in
        let input = Data(bytes)
        let newline = input.firstIndex(of: 10) ?? input.endIndex
        let line = String(decoding: input[input.startIndex..<newline], as: UTF8.self)
        let body = newline < input.endIndex ? input[input.index(after: newline)...] : Data()[...]
        let parts = line.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, let method = HTTPMethod(rawValue: String(parts[0])),
            let target = HTTPRequestTarget(String(parts[1]))
        else { return false }
        guard case .found(let route, let parameters) = router.match(method, pathSegments: target.pathSegments) else {
            return false
        }
        guard method == .put, let sequence = parameters["sequence"] else { return true }
        let segments = route.pattern.split(separator: "/")
        guard segments.count >= 2, let kind = NightChunkKind(rawValue: String(segments[segments.count - 2])) else {
            fatalError("night-service: the chunk route \(route.pattern) names no kind")
        }
        guard let number = Int(sequence), number >= 0 else { return false }
        return intake(Data(body), kind: kind)
    }

    /// Runs the intake's check on `body` and, when it takes the chunk, assembles it as a worker would.
    private static func intake(_ body: Data, kind: NightChunkKind) -> Bool {
        let directory = ScratchDirectory.url.appendingPathComponent("night-service-input", isDirectory: true)
        try? FileManager.default.removeItem(at: directory)
        let received = ScratchDirectory.url.appendingPathComponent("night-service-chunk")
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try body.write(to: received)
        } catch {
            fatalError("night-service: cannot write the scratch chunk: \(error)")
        }
        let fileExtension: String
        do {
            fileExtension = try NightChunkCheck.fileExtension(kind: kind, file: received)
        } catch let error as HTTPResponseError where (400..<500).contains(error.response.status) {
            return false
        } catch {
            fatalError("night-service: undocumented rejection \(type(of: error)): \(error)")
        }
        do {
            let chunk = directory.appendingPathComponent(
                NightChunkDirectory.fileName(sequence: 0, fileExtension: fileExtension))
            try FileManager.default.moveItem(at: received, to: chunk)
            let night = try NightChunkDirectory.assemble(
                directory, role: kind.rawValue, into: ScratchDirectory.url.appendingPathComponent("night-service-run"))
            try? FileManager.default.removeItem(at: night)
        } catch {
            fatalError("night-service: a chunk the intake took does not assemble: \(error)")
        }
        return true
    }
}
