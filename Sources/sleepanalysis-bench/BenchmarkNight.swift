import Foundation
import SleepAnalysis

/// One night through the public SDK under a throw-away licence and storage directory: the benchmarks' common run.
enum BenchmarkNight {
    /// What one run gives: the results and what they cost.
    struct Run {
        /// The night's results: one, or with `stereo` the primary sleeper's then the secondary's.
        var results: [AnalysisResult]
        /// Wall-clock seconds from the start of the analysis to its result.
        var wallSeconds: Double
        /// CPU seconds of this process over the same span.
        var cpuSeconds: Double
        /// The (primary) night's result.
        var result: AnalysisResult { results[0] }
        /// Seconds of audio analysed.
        var audioSeconds: Double { result.endTime.timeIntervalSince(result.startTime) }
    }

    /// Analyses `file` with `features`, as fast as the machine goes or at another pace.
    ///
    /// - Parameters:
    ///   - file: The audio file.
    ///   - accelerometer: An accelerometer CSV analysed with it (the primary sleeper's with `stereo`), or nil.
    ///   - stereo: Two sleepers, one channel each (as `sleepanalysis analyze --stereo`): a session per channel.
    ///   - features: The licensed features (which engines run).
    ///   - pace: How fast the file is replayed (`.realTime` times what live analysis costs).
    /// - Returns: The results and their cost.
    /// - Throws: Whatever the SDK throws, or the data source's error when the input ended early.
    static func analyse(
        _ file: URL, accelerometer: URL? = nil, stereo: Bool = false, features: SleepAnalysisFeatures = .all,
        pace: ReplayPace = .asFastAsPossible
    ) async throws -> Run {
        let storage = FileManager.default.temporaryDirectory.appendingPathComponent("bench-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: storage) }
        let pair = try LicenseIssuer.generateKeyPair()
        let key = try LicenseIssuer.issue(
            features: features, expires: Date().addingTimeInterval(86_400), subject: "benchmark",
            privateKey: pair.privateKey)
        try await SleepCycleSdk.initialize(
            logLevel: .error, apiKey: key, storageDirectory: storage, trustedIssuerKeys: [pair.publicKeyBase64])
        let source = SleepCycleSdk.createFileDataSource(
            audio: file, accelerometer: accelerometer, startTime: Date(), pace: pace)
        let config = SleepAnalysisConfig(useAudio: true, useAccelerometer: accelerometer != nil)
        let wallStart = DispatchTime.now().uptimeNanoseconds
        let cpuStart = cpuSeconds()
        var results: [AnalysisResult]
        if stereo {
            try await SleepCycleSdk.startDataSource(using: source)
            let primary = try await SleepCycleSdk.startMultiChannelAnalysis(channel: .primary, config: config)
            let secondary = try await SleepCycleSdk.startMultiChannelAnalysis(
                channel: .secondary, config: SleepAnalysisConfig(useAudio: true))
            await source.waitUntilFinished()
            results = [
                try await SleepCycleSdk.stopAnalysis(sessionId: primary),
                try await SleepCycleSdk.stopAnalysis(sessionId: secondary),
            ]
            await SleepCycleSdk.stopDataSource()
        } else {
            try await SleepCycleSdk.startAnalysis(config: config, using: source)
            await source.waitUntilFinished()
            results = [try await SleepCycleSdk.stopAnalysis()]
        }
        let wall = Double(DispatchTime.now().uptimeNanoseconds - wallStart) / 1e9
        let cpu = cpuSeconds() - cpuStart
        let sourceError = await SleepCycleSdk.dataSourceError
        await SleepCycleSdk.deinitialize()
        // A night cut short by bad input would time only part of the file.
        if let sourceError { throw sourceError }
        return Run(results: results, wallSeconds: wall, cpuSeconds: cpu)
    }
}
