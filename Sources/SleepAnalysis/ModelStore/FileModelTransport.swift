import Foundation

/// Reads a `file://` model store, on a dispatch thread (never the cooperative pool).
struct FileModelTransport: ModelTransport {
    /// Bytes per read.
    private static let chunkBytes = 1 << 20

    func fetch(_ url: URL, limit: Int) async throws -> Data {
        try await Self.onDispatchThread {
            let handle = try Self.open(url)
            defer { try? handle.close() }
            let data = try handle.read(upToCount: limit + 1) ?? Data()
            guard data.count <= limit else {
                throw SleepCycleSdkError.resourceDownloadFailed("\(url.path) is larger than \(limit) bytes")
            }
            return data
        }
    }

    func download(_ url: URL, from offset: Int64, into destination: PartialModelFile) async throws {
        try await Self.onDispatchThread {
            let handle = try Self.open(url)
            defer { try? handle.close() }
            do {
                let end = try handle.seekToEnd()
                let start = UInt64(max(0, offset)) <= end ? UInt64(max(0, offset)) : 0
                try handle.seek(toOffset: start)
                try destination.begin(at: Int64(start))
                while let chunk = try handle.read(upToCount: Self.chunkBytes), !chunk.isEmpty {
                    try destination.append(chunk)
                }
            } catch let error as SleepCycleSdkError {
                throw error
            } catch {
                throw SleepCycleSdkError.resourceDownloadFailed(
                    "cannot read \(url.path): \(error.localizedDescription)")
            }
        }
    }

    private static func open(_ url: URL) throws -> FileHandle {
        do {
            return try FileHandle(forReadingFrom: url)
        } catch {
            throw SleepCycleSdkError.resourceDownloadFailed("cannot open \(url.path): \(error.localizedDescription)")
        }
    }

    /// Runs blocking file work on a dispatch thread and awaits its result.
    private static func onDispatchThread<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global(qos: .utility).async {
                continuation.resume(with: Result { try work() })
            }
        }
    }
}
