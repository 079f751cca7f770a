import Foundation
import SleepAnalysis
import Synchronization

/// A progress bar on standard error, drawn only when standard error is a terminal. It listens to the analysis
/// batches and redraws at most five times a second.
final class ProgressBar: AudioEventListener, Sendable {
    private struct State {
        var done: TimeInterval = 0
        var lastDraw = Date.distantPast
    }

    private let total: TimeInterval
    private let start: Date
    private let enabled: Bool
    private let state = Mutex(State())

    /// A bar for `total` seconds of audio that begin at `start`.
    init(total: TimeInterval, start: Date) {
        self.total = total
        self.start = start
        enabled = isatty(STDERR_FILENO) == 1 && total > 0
    }

    func onAudioAnalysisBatchCompleted(
        sessionId: UUID, audioSamples: [Float], audioSampleRate: Int, audioStartTime: Date, audioEndTime: Date,
        audioProbability: [EventType: Float], eventsStarted: [EventStartedInfo], eventsEnded: [EventEndedInfo],
        dbSpl: [Float]
    ) {
        guard enabled else { return }
        let line: String? = state.withLock { state in
            state.done = audioEndTime.timeIntervalSince(start)
            guard Date().timeIntervalSince(state.lastDraw) >= 0.2 else { return nil }
            state.lastDraw = Date()
            return Self.line(done: state.done, total: total)
        }
        if let line { FileHandle.standardError.write(Data(line.utf8)) }
    }

    /// Draws the bar full and ends its line.
    func finish() {
        guard enabled else { return }
        FileHandle.standardError.write(Data((Self.line(done: total, total: total) + "\n").utf8))
    }

    private static func line(done: TimeInterval, total: TimeInterval) -> String {
        let fraction = min(1, max(0, done / total))
        let width = 40
        let filled = Int(fraction * Double(width))
        let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
        return String(format: "\r%@ %3.0f%%  %@ of %@", bar, fraction * 100, clock(done), clock(total))
    }

    private static func clock(_ seconds: TimeInterval) -> String {
        let value = Int(max(0, seconds))
        return String(format: "%d:%02d:%02d", value / 3600, value / 60 % 60, value % 60)
    }
}
