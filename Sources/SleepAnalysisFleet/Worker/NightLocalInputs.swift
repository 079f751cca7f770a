import Foundation
import SleepAnalysis

/// A night's inputs as local files: paths as submitted, `http(s)` inputs downloaded into a directory of the run's
/// own (`<download cache>/job-<id>-<lease>`), which the run deletes when the night ends; a directory of chunks
/// (`NightChunkDirectory`, the night service's uploads) assembled into one file in that directory.
struct NightLocalInputs: Sendable {
    /// The audio file.
    let audio: URL
    /// The accelerometer CSV, if any.
    let accelerometer: URL?
    /// The heart-rate CSV, if any.
    let heartRate: URL?

    /// Downloads the remote inputs of `night` (files are used where they are).
    ///
    /// - Parameters:
    ///   - night: The submitted night.
    ///   - fetcher: How to download.
    ///   - directory: The run's download directory.
    ///   - logger: Where each download is reported (URLs redacted).
    /// - Throws: `RemoteInputError`, or `CancellationError` when the run is aborted.
    static func fetch(
        _ night: NightSubmission, fetcher: RemoteInputFetcher, into directory: URL, logger: PackageLogger
    ) async throws -> NightLocalInputs {
        func local(_ input: URL, _ role: String) async throws -> URL {
            if NightChunkDirectory.isChunkDirectory(input) {
                logger.info("assembling the \(role) from its chunks")
                return try NightChunkDirectory.assemble(input, role: role, into: directory)
            }
            guard RemoteInputURL.isRemote(input) else { return input }
            logger.info("fetching the \(role) from \(RemoteInputURL.redacted(input))")
            let name = "\(role)-\(RemoteInputFetcher.fileName(of: input))"
            return try await fetcher.fetch(input, into: directory, name: name)
        }
        let audio = try await local(night.audio, "audio")
        var accelerometer: URL?
        if let input = night.accelerometer { accelerometer = try await local(input, "accelerometer") }
        var heartRate: URL?
        if let input = night.heartRate { heartRate = try await local(input, "heart-rate") }
        return NightLocalInputs(audio: audio, accelerometer: accelerometer, heartRate: heartRate)
    }
}
