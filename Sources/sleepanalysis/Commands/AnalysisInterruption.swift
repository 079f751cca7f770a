import Foundation
import SleepAnalysis

/// `analyze` stopped by SIGINT (Ctrl-C) or SIGTERM before the input ended: the partial result is printed, the
/// session stays in the journal, and the command ends with 128 + the signal's number and how to resume.
struct AnalysisInterruption: Error {
    /// The signal that arrived.
    var signal: Int32

    /// Interrupts the SDK's analysis and returns each session's result so far, the primary channel first (labelled
    /// by channel only when there are two).
    ///
    /// - Returns: The partial results.
    /// - Throws: The SDK's error when no analysis runs.
    static func partialResults() async throws -> [(channel: String?, result: AnalysisResult)] {
        let results = try await SleepCycleSdk.interruptAnalysis()
        return AnalysisChannel.allCases.compactMap { channel in
            results[channel].map { (results.count > 1 ? channel.rawValue : nil, $0) }
        }
    }

    /// The error that ends the command: what the printed result covers and the command that continues the night.
    ///
    /// - Parameters:
    ///   - arguments: The arguments `analyze` was given.
    ///   - results: The partial results that were printed.
    /// - Returns: An error with exit status 128 + `signal`.
    func error(arguments: [String], results: [(channel: String?, result: AnalysisResult)]) -> CommandLineError {
        let covered = results.map { $0.result.endTime.timeIntervalSince($0.result.startTime) }.max() ?? 0
        let resume = (["sleepanalysis", "analyze"] + arguments.filter { $0 != "--resume" } + ["--resume"])
            .map(Self.shellQuoted).joined(separator: " ")
        return CommandLineError(
            kind: .interrupted(signal: signal),
            message: "interrupted: the result above covers the first \(Self.duration(covered)) of the night; "
                + "the session is kept, continue it with: \(resume)")
    }

    /// `1 h 02 min`, `2 min 30 s`.
    static func duration(_ seconds: TimeInterval) -> String {
        let total = Int(seconds.rounded())
        if total >= 3600 { return String(format: "%d h %02d min", total / 3600, total % 3600 / 60) }
        return String(format: "%d min %02d s", total / 60, total % 60)
    }

    /// `word` as one shell word: unchanged when it is made of safe characters, else single-quoted.
    static func shellQuoted(_ word: String) -> String {
        let safe = CharacterSet(
            charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./:=,+@%")
        if !word.isEmpty, word.unicodeScalars.allSatisfy(safe.contains) { return word }
        return "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
