import Foundation
import TestSupport
import XCTest

@testable import SleepAnalysis
@testable import SleepAnalysisFleet

/// The nights the night-service tests upload: the 30-minute demo night at 16 kHz as one WAV file and as FLAC
/// chunks of `chunkSeconds` (the same 16-bit samples), and its accelerometer CSV in parts.
enum ServiceNights {
    /// The analysis rate the night is written at.
    static let sampleRate = 16_000

    /// Writes the first `seconds` of the demo night (`night_short.ogg`, resampled to 16 kHz mono) into
    /// `directory`: `whole.wav` and `chunk-N.flac` of `chunkSeconds` each.
    ///
    /// - Returns: The whole file and the chunks, in order.
    static func write(
        seconds: Int = 1_800, chunkSeconds: Int = 30, into directory: URL
    ) throws -> (whole: URL, chunks: [URL]) {
        let reader = try AudioFileReader(url: FixturePaths.fixtures.appendingPathComponent("night_short.ogg"))
        let resampler = try Resampler(inputRate: reader.sampleRate, outputRate: Double(sampleRate), channelCount: 1)
        let whole = directory.appendingPathComponent("whole.wav")
        let wholeWriter = try AudioFileWriter(url: whole, sampleRate: sampleRate, channelCount: 1, format: .wav16)
        let total = seconds * sampleRate
        let perChunk = chunkSeconds * sampleRate
        var chunks: [URL] = []
        var chunkWriter: AudioFileWriter?
        var inChunk = 0
        var written = 0
        func append(_ samples: [Float]) throws {
            var rest = samples[...]
            while !rest.isEmpty, written < total {
                if chunkWriter == nil {
                    let url = directory.appendingPathComponent("chunk-\(chunks.count).flac")
                    chunkWriter = try AudioFileWriter(
                        url: url, sampleRate: sampleRate, channelCount: 1, format: .flac16)
                    chunks.append(url)
                    inChunk = 0
                }
                let take = min(rest.count, perChunk - inChunk, total - written)
                let part = Array(rest.prefix(take))
                try chunkWriter?.write(part)
                try wholeWriter.write(part)
                rest = rest.dropFirst(take)
                inChunk += take
                written += take
                if inChunk == perChunk {
                    try chunkWriter?.close()
                    chunkWriter = nil
                }
            }
        }
        while written < total, let block = try reader.readMono(maxFrames: 48_000) {
            try append(try resampler.process(block))
        }
        if written < total { try append(try resampler.flush()) }
        try chunkWriter?.close()
        try wholeWriter.close()
        return (whole, chunks)
    }

    /// The demo night's accelerometer CSV up to `seconds`, whole and in `parts` chunks (the first with the
    /// comments and header).
    static func accelerometer(
        seconds: Int = 1_800, parts: Int, into directory: URL
    ) throws -> (whole: URL, chunks: [URL]) {
        let text = try String(
            contentsOf: FixturePaths.fixtures.appendingPathComponent("night_short_accelerometer.csv"), encoding: .utf8)
        let lines = text.split(separator: "\n").filter { line in
            guard let first = line.first, first.isNumber, let time = Double(line.prefix { $0 != "," }) else {
                return true
            }
            return time < Double(seconds)
        }
        let header = lines.prefix { $0.first?.isNumber != true }
        let rows = Array(lines.dropFirst(header.count))
        let whole = directory.appendingPathComponent("accelerometer.csv")
        try (lines.joined(separator: "\n") + "\n").write(to: whole, atomically: true, encoding: .utf8)
        var chunks: [URL] = []
        let size = (rows.count + parts - 1) / parts
        for part in 0..<parts {
            let slice = rows[min(rows.count, part * size)..<min(rows.count, (part + 1) * size)]
            let url = directory.appendingPathComponent("accelerometer-\(part).csv")
            let head = part == 0 ? header.joined(separator: "\n") + "\n" : "timestamp,x,y,z\n"
            try (head + slice.joined(separator: "\n") + "\n").write(to: url, atomically: true, encoding: .utf8)
            chunks.append(url)
        }
        return (whole, chunks)
    }

    /// Two licence keys of one issuer, for tenants `a` and `b`, and the issuer's public key.
    static func tenantKeys() throws -> (a: String, b: String, trusted: String) {
        let pair = try LicenseIssuer.generateKeyPair()
        let expires = Date().addingTimeInterval(86_400)
        return (
            try LicenseIssuer.issue(features: .all, expires: expires, subject: "tenant-a", privateKey: pair.privateKey),
            try LicenseIssuer.issue(features: .all, expires: expires, subject: "tenant-b", privateKey: pair.privateKey),
            pair.publicKeyBase64
        )
    }

    /// The JSON object of `data`.
    static func object(_ data: Data) throws -> [String: Any] {
        try XCTUnwrap(
            try JSONSerialization.jsonObject(with: data) as? [String: Any], String(decoding: data, as: UTF8.self))
    }
}
