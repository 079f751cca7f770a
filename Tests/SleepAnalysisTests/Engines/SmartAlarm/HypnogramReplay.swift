import Foundation
import TestSupport
import XCTest

@testable import SleepAnalysis

/// A night as one stage per 30-s epoch (nil: unscored), replayed into a smart-alarm engine.
struct HypnogramReplay {
    /// The epoch length in seconds.
    static let epochLength: TimeInterval = 30

    /// When the first epoch starts.
    var start: Date
    /// One stage per epoch; nil for an unscored epoch (no prediction published for it).
    var stages: [SleepStage?]

    /// A hypnogram from runs: `[(.deep, 10), (.light, 4)]` is 10 deep epochs then 4 light ones.
    init(start: Date, runs: [(SleepStage, Int)]) {
        self.start = start
        self.stages = runs.flatMap { stage, count in Array(repeating: SleepStage?.some(stage), count: count) }
    }

    /// A hypnogram from per-epoch stages.
    init(start: Date, stages: [SleepStage?]) {
        self.start = start
        self.stages = stages
    }

    /// When the hypnogram ends.
    var end: Date { start.addingTimeInterval(Double(stages.count) * Self.epochLength) }

    /// The epoch of index `index`.
    func epoch(_ index: Int) -> DateInterval {
        DateInterval(start: start.addingTimeInterval(Double(index) * Self.epochLength), duration: Self.epochLength)
    }

    /// The real-time prediction available at `time`: that of the last epoch ended at or before it.
    func latestPrediction(at time: Date) -> SleepStagePrediction? {
        let ended = Int((time.timeIntervalSince(start) / Self.epochLength).rounded(.down))
        var index = min(ended, stages.count) - 1
        while index >= 0, stages[index] == nil { index -= 1 }
        guard index >= 0, let stage = stages[index] else { return nil }
        let probabilities = SleepStageProbabilities(
            awake: stage == .awake ? 0.7 : 0.1, rem: stage == .rem ? 0.7 : 0.1,
            light: stage == .light ? 0.7 : 0.1, deep: stage == .deep ? 0.7 : 0.1
        )
        return SleepStagePrediction(stage: stage, interval: epoch(index), probabilities: probabilities)
    }

    /// Drives an engine with a manual clock, one tick per second from `clock.now` until `until`.
    ///
    /// - Parameters:
    ///   - engine: The engine.
    ///   - clock: The clock; it is advanced one second per tick.
    ///   - until: The last tick's time (inclusive).
    ///   - movements: Times of movement events; each is reported at the first tick at or after it.
    /// - Returns: Every event the ticks produced.
    func replay(
        into engine: SmartAlarmEngine, clock: ManualAnalysisClock, until: Date, movements: [Date] = []
    ) -> [SmartAlarmEvent] {
        var events: [SmartAlarmEvent] = []
        var previousTick: Date?
        while clock.now <= until {
            let now = clock.now
            let moved = movements.contains { movement in
                movement <= now && (previousTick.map { movement > $0 } ?? true)
            }
            events += engine.tick(now: now, stage: latestPrediction(at: now), movement: moved)
            previousTick = now
            clock.advance(by: 1)
        }
        return events
    }

    /// Loads a Sleep-EDF hypnogram converted to `epoch,onset_s,stage_rk` (W, 1, 2, 3, 4, R, ?).
    ///
    /// - Parameters:
    ///   - url: The CSV file.
    ///   - start: When its first epoch starts.
    /// - Returns: The hypnogram (N1/N2 light, N3/N4 deep, `?` unscored).
    static func sleepEdf(_ url: URL, start: Date) throws -> HypnogramReplay {
        let text = try String(contentsOf: url, encoding: .utf8)
        var stages: [SleepStage?] = []
        for line in text.split(whereSeparator: \.isNewline).dropFirst() {
            let fields = line.split(separator: ",")
            guard fields.count == 3 else { continue }
            switch fields[2] {
            case "W": stages.append(.awake)
            case "1", "2": stages.append(.light)
            case "3", "4": stages.append(.deep)
            case "R": stages.append(.rem)
            default: stages.append(nil)
            }
        }
        return HypnogramReplay(start: start, stages: stages)
    }
}

/// The triggers among some events.
func triggers(_ events: [SmartAlarmEvent]) -> [SmartAlarmEvent] {
    events.filter { if case .triggered = $0.type { true } else { false } }
}
