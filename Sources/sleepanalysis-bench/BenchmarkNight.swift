import Foundation
import SleepAnalysis

/// One night through the public SDK under a throw-away licence and storage directory: the benchmarks' common run.
enum BenchmarkNight {
    /// What one run gives: the result and what it cost.
    struct Run {
        /// The night's result.
        var result: AnalysisResult
        /// Wall-clock seconds from the start of the analysis to its result.
        var wallSeconds: Double
        /// CPU seconds of this process over the same span.
        var cpuSeconds: Double
        /// Seconds of audio analysed.
        var audioSeconds: Double { result.endTime.timeIntervalSince(result.startTime) }
    }

    /// Analyses `file` (audio only) with `features` as fast as the machine goes.
    ///
    /// - Parameters:
    ///   - file: The audio file.
    ///   - features: The licensed features (which engines run).
    /// - Returns: The result and its cost.
    /// - Throws: Whatever the SDK throws.
    static func analyse(_ file: URL, features: SleepAnalysisFeatures = .all) async throws -> Run {
        let storage = FileManager.default.temporaryDirectory.appendingPathComponent("bench-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: storage) }
        let pair = try LicenseIssuer.generateKeyPair()
        let key = try LicenseIssuer.issue(
            features: features, expires: Date().addingTimeInterval(3600), subject: "benchmark",
            privateKey: pair.privateKey)
        try await SleepCycleSdk.initialize(
            logLevel: .error, apiKey: key, storageDirectory: storage, trustedIssuerKeys: [pair.publicKeyBase64])
        let source = SleepCycleSdk.createFileDataSource(audio: file, accelerometer: nil, startTime: Date())
        let wallStart = DispatchTime.now().uptimeNanoseconds
        let cpuStart = cpuSeconds()
        try await SleepCycleSdk.startAnalysis(config: SleepAnalysisConfig(useAudio: true), using: source)
        await source.waitUntilFinished()
        let result = try await SleepCycleSdk.stopAnalysis()
        let wall = Double(DispatchTime.now().uptimeNanoseconds - wallStart) / 1e9
        let cpu = cpuSeconds() - cpuStart
        await SleepCycleSdk.deinitialize()
        return Run(result: result, wallSeconds: wall, cpuSeconds: cpu)
    }
}
