import Foundation
import SleepAnalysis

/// A night uploaded in parts (the night service's chunks): a directory per input whose files are named by their
/// sequence number, `00000000.wav`, `00000001.flac`, … (any extension; names that are not 8 digits and an
/// extension are ignored). A worker given such a directory as an input assembles its chunks, in sequence order,
/// into one file of the run's own before analysing it.
///
/// Audio chunks are self-contained files (WAV, FLAC, Ogg Opus, …) of one sample rate and channel count; their
/// samples are written, in order, to one 32-bit float WAVE file (RF64 past 4 GiB), so the night analysed is
/// sample for sample the chunks' concatenation. CSV chunks are concatenated; in every chunk after the first,
/// comment lines (`#`) and header lines (starting with a letter) are dropped.
package enum NightChunkDirectory {
    /// The file name of chunk `sequence` with extension `fileExtension`.
    package static func fileName(sequence: Int, fileExtension: String) -> String {
        let digits = String(sequence)
        return String(repeating: "0", count: max(0, 8 - digits.count)) + digits + "." + fileExtension
    }

    /// The sequence number a chunk file name stands for, or nil for any other name.
    package static func sequence(ofFileName name: String) -> Int? {
        let parts = name.split(separator: ".", maxSplits: 1)
        guard parts.count == 2, parts[0].count == 8, parts[0].allSatisfy(\.isASCII), parts[0].allSatisfy(\.isNumber),
            !parts[1].isEmpty
        else { return nil }
        return Int(parts[0])
    }

    /// Whether `input` is a directory of chunks (a file URL naming a directory).
    static func isChunkDirectory(_ input: URL) -> Bool {
        var isDirectory: ObjCBool = false
        return input.isFileURL && FileManager.default.fileExists(atPath: input.path, isDirectory: &isDirectory)
            && isDirectory.boolValue
    }

    /// The chunks of `directory`, in sequence order.
    ///
    /// - Throws: `SleepCycleSdkError.invalidInput` when the directory cannot be listed, holds no chunk, two chunks
    ///   of one sequence number, or a gap (the sequence must run 0, 1, 2, … without a hole).
    static func chunks(in directory: URL) throws -> [URL] {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        } catch {
            throw SleepCycleSdkError.invalidInput(
                "\(directory.path): cannot list the chunks: \(error.localizedDescription)")
        }
        let numbered = names.compactMap { name in sequence(ofFileName: name).map { ($0, name) } }.sorted { $0.0 < $1.0 }
        guard !numbered.isEmpty else { throw SleepCycleSdkError.invalidInput("\(directory.path): no chunk") }
        for (expected, chunk) in numbered.enumerated() where chunk.0 != expected {
            throw SleepCycleSdkError.invalidInput(
                chunk.0 < expected
                    ? "\(directory.path): two chunks of sequence number \(chunk.0)"
                    : "\(directory.path): chunk \(expected) is missing (the next is \(chunk.0))")
        }
        return numbered.map { directory.appendingPathComponent($0.1) }
    }

    /// Writes the chunks of `directory` as one file in `destination` (a directory) and returns it: `role.wav` for
    /// audio, `role.csv` for the sensors' CSV.
    ///
    /// - Parameters:
    ///   - directory: The chunk directory.
    ///   - role: `audio`, `accelerometer` or `heart-rate`.
    ///   - destination: The run's directory (created when missing).
    /// - Returns: The assembled file.
    /// - Throws: `SleepCycleSdkError.invalidInput` for missing, unreadable or mismatched chunks,
    ///   `.storageFailure` when the file cannot be written, `CancellationError` when the task is cancelled.
    package static func assemble(_ directory: URL, role: String, into destination: URL) throws -> URL {
        let chunks = try chunks(in: directory)
        do {
            try FileManager.default.createDirectory(at: destination, withIntermediateDirectories: true)
        } catch {
            throw SleepCycleSdkError.storageFailure("\(destination.path): \(error.localizedDescription)")
        }
        if role == "audio" {
            let output = destination.appendingPathComponent("\(role).wav")
            try assembleAudio(chunks, into: output)
            return output
        }
        let output = destination.appendingPathComponent("\(role).csv")
        try assembleText(chunks, into: output)
        return output
    }

    /// Decodes each chunk in turn and appends its samples to one float WAVE file.
    private static func assembleAudio(_ chunks: [URL], into output: URL) throws {
        var writer: AudioFileWriter?
        var format: (rate: Double, channels: Int)?
        for chunk in chunks {
            try Task.checkCancellation()
            let reader = try AudioFileReader(url: chunk)
            if let format, format.rate != reader.sampleRate || format.channels != reader.channelCount {
                throw SleepCycleSdkError.invalidInput(
                    "\(chunk.lastPathComponent): \(Int(reader.sampleRate)) Hz, \(reader.channelCount) channel(s); "
                        + "the night's first chunk has \(Int(format.rate)) Hz, \(format.channels) channel(s)")
            }
            if writer == nil {
                format = (reader.sampleRate, reader.channelCount)
                writer = try AudioFileWriter(
                    url: output, sampleRate: Int(reader.sampleRate), channelCount: reader.channelCount,
                    format: .wavFloat)
            }
            while let block = try reader.read(maxFrames: 65_536) { try writer?.write(block) }
        }
        try writer?.close()
    }

    /// Concatenates text chunks, dropping the comment and header lines of all but the first.
    private static func assembleText(_ chunks: [URL], into output: URL) throws {
        guard FileManager.default.createFile(atPath: output.path, contents: nil),
            let handle = try? FileHandle(forWritingTo: output)
        else { throw SleepCycleSdkError.storageFailure("\(output.path): cannot create") }
        defer { try? handle.close() }
        for (index, chunk) in chunks.enumerated() {
            try Task.checkCancellation()
            guard let data = try? Data(contentsOf: chunk), let text = String(data: data, encoding: .utf8) else {
                throw SleepCycleSdkError.invalidInput("\(chunk.lastPathComponent): not readable UTF-8 text")
            }
            var lines = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
            if lines.last == "" { lines.removeLast() }
            if index > 0 {
                lines.removeAll { line in line.hasPrefix("#") || line.first.map { $0.isLetter } == true }
            }
            do {
                try handle.write(contentsOf: Data(lines.map { $0 + "\n" }.joined().utf8))
            } catch {
                throw SleepCycleSdkError.storageFailure("\(output.path): \(error.localizedDescription)")
            }
        }
    }
}
