import Foundation
import TestSupport

@testable import SleepAnalysis

/// Nights for analyzer tests: consecutive 4-minute parts of the bundled demo night (snoring, talking, movement
/// sounds, breathing), each written once as a 16-kHz WAV file, and a way to analyse one through an analyzer of
/// its own.
enum AnalyzerNights {
    /// Length of each night, seconds.
    static let nightSeconds = 240
    /// The nights' start times (one per night, a day apart, so results cannot be confused).
    static func startTime(of index: Int) -> Date {
        Date(timeIntervalSince1970: 1_796_000_000 + Double(index) * 86_400)
    }

    /// Writes night `index` (0...4) of the demo night into `directory` and returns its file.
    static func write(index: Int, into directory: URL) throws -> URL {
        let reader = try AudioFileReader(url: FixturePaths.fixtures.appendingPathComponent("night_short.ogg"))
        let rate = Int(reader.sampleRate)
        var skipped = 0
        while skipped < index * nightSeconds * rate {
            guard let block = try reader.readMono(maxFrames: min(rate, index * nightSeconds * rate - skipped)) else {
                break
            }
            skipped += block.count
        }
        let url = directory.appendingPathComponent("night-\(index).wav")
        let writer = try AudioFileWriter(url: url, sampleRate: rate, channelCount: 1, format: .wav16)
        var written = 0
        while written < nightSeconds * rate,
            let block = try reader.readMono(maxFrames: min(rate, nightSeconds * rate - written))
        {
            try writer.write(block)
            written += block.count
        }
        try writer.close()
        return url
    }

    /// Analyses `audio` from start to end through a new analyzer in `storage` and returns its result.
    static func analyse(
        _ audio: URL, startTime: Date, storage: URL, licence: (apiKey: String, trustedKey: String)
    ) async throws -> AnalysisResult {
        let analyzer = SleepAnalyzer()
        try await analyzer.initialize(
            logLevel: .warning, apiKey: licence.apiKey, storageDirectory: storage,
            trustedIssuerKeys: [licence.trustedKey])
        let source = analyzer.createFileDataSource(audio: audio, accelerometer: nil, startTime: startTime)
        try await analyzer.startAnalysis(config: SleepAnalysisConfig(useAudio: true), using: source)
        await source.waitUntilFinished()
        let result = try await analyzer.stopAnalysis()
        await analyzer.deinitialize()
        return result
    }

    /// The result as JSON with its session identifier (which every event and rate carries too) replaced, for
    /// comparing two runs of one night.
    static func comparable(_ result: AnalysisResult) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        encoder.dateEncodingStrategy = .millisecondsSince1970
        let json = String(decoding: try encoder.encode(result), as: UTF8.self)
        return json.replacingOccurrences(of: result.sessionId.uuidString, with: "SESSION")
    }
}
