import Foundation

/// Watches the audio input of a session: `.flatline` when the signal is constant (a dead or muted microphone),
/// `.missingInput` when no samples arrive for longer than the timeout, `.healthy` otherwise.
///
/// Updates are returned only on change. Not thread-safe: one session's pipeline drives it from one task.
package final class AudioHealthMonitor {
    /// The session the updates belong to.
    let sessionId: UUID
    /// The tuning in use.
    let configuration: AudioHealthConfiguration

    private var sessionStart: Date?
    private var status: AudioHealthStatus?
    private var statusStart: Date?
    private var closed: [AudioHealthInterval] = []
    private var expectedStart: Date?
    private var flatSince: Date?

    /// Creates a monitor.
    ///
    /// - Parameters:
    ///   - sessionId: Stamped on every update.
    ///   - configuration: Thresholds and timeout.
    ///   - startTime: The session's start; nil takes the first batch's start (or the first `now` checked).
    /// - Throws: `SleepCycleSdkError.invalidConfiguration` when a value is out of range.
    package init(
        sessionId: UUID, configuration: AudioHealthConfiguration = AudioHealthConfiguration(),
        startTime: Date? = nil
    ) throws {
        try configuration.validate()
        self.sessionId = sessionId
        self.configuration = configuration
        self.sessionStart = startTime
    }

    /// The current status (nil before any input or check).
    var currentStatus: AudioHealthStatus? { status }

    /// Takes the next batch of audio.
    ///
    /// - Returns: The status changes it causes (a gap in the batch times longer than the timeout reports
    ///   `.missingInput` from the end of the previous batch).
    package func process(_ batch: AudioBatch) -> [AudioHealthUpdate] {
        process(samples: batch.samples, sampleRate: Double(AudioBatch.sampleRate), startTime: batch.startTime)
    }

    /// Takes audio samples at `sampleRate` starting at `startTime`.
    ///
    /// - Returns: The status changes they cause.
    func process(samples: [Float], sampleRate: Double, startTime: Date) -> [AudioHealthUpdate] {
        var updates: [AudioHealthUpdate] = []
        if sessionStart == nil { sessionStart = startTime }
        let previousEnd = expectedStart ?? sessionStart!
        if startTime.timeIntervalSince(previousEnd) >= configuration.missingInputTimeout {
            change(to: .missingInput, at: previousEnd, into: &updates)
            flatSince = nil
        }
        if status == nil { change(to: .healthy, at: sessionStart!, into: &updates) }
        let blockLength = max(1, Int((configuration.blockSeconds * sampleRate).rounded()))
        var offset = 0
        while offset < samples.count {
            let end = min(samples.count, offset + blockLength)
            let blockStart = startTime.addingTimeInterval(Double(offset) / sampleRate)
            let blockEnd = startTime.addingTimeInterval(Double(end) / sampleRate)
            let (low, high) = DSPSampleChecks.range(samples[offset..<end])
            let constant = !(high >= low) || Double(high - low) <= configuration.flatlinePeakToPeak
            if constant {
                if flatSince == nil { flatSince = blockStart }
                if status != .flatline, let since = flatSince,
                    blockEnd.timeIntervalSince(since) >= configuration.flatlineSeconds - 1e-9
                {
                    change(to: .flatline, at: since, into: &updates)
                }
            } else {
                flatSince = nil
                if status != .healthy { change(to: .healthy, at: blockStart, into: &updates) }
            }
            offset = end
        }
        expectedStart = startTime.addingTimeInterval(Double(samples.count) / sampleRate)
        return updates
    }

    /// Called on a timer while no audio arrives: reports `.missingInput` once no samples have come for longer than
    /// the timeout.
    ///
    /// - Parameter now: The current time (the pipeline's clock).
    /// - Returns: The status change, if any.
    func checkForMissingInput(now: Date) -> [AudioHealthUpdate] {
        if sessionStart == nil { sessionStart = now }
        let lastSample = expectedStart ?? sessionStart!
        var updates: [AudioHealthUpdate] = []
        if now.timeIntervalSince(lastSample) >= configuration.missingInputTimeout, status != .missingInput {
            if status == nil, lastSample > sessionStart! { change(to: .healthy, at: sessionStart!, into: &updates) }
            change(to: .missingInput, at: lastSample, into: &updates)
            flatSince = nil
        }
        return updates
    }

    /// Ends the session at `end`.
    ///
    /// - Returns: The health intervals, in order, covering the session from its start to `end` with no gap.
    func finish(at end: Date) -> AudioStatistics {
        var intervals = closed
        if let status, let statusStart {
            let lastSample = expectedStart ?? sessionStart ?? statusStart
            if status != .missingInput, end.timeIntervalSince(lastSample) >= configuration.missingInputTimeout,
                lastSample >= statusStart
            {
                intervals.append(interval(status, from: statusStart, to: lastSample))
                intervals.append(interval(.missingInput, from: lastSample, to: end))
            } else {
                intervals.append(interval(status, from: statusStart, to: end))
            }
        } else if let sessionStart, end > sessionStart {
            // Nothing ever arrived: the whole session lacked input.
            intervals.append(interval(.missingInput, from: sessionStart, to: end))
        }
        return AudioStatistics(healthIntervals: intervals.filter { $0.interval.duration > 0 })
    }

    private func interval(_ status: AudioHealthStatus, from start: Date, to end: Date) -> AudioHealthInterval {
        AudioHealthInterval(status: status, interval: DateInterval(start: start, end: max(start, end)))
    }

    private func change(to new: AudioHealthStatus, at requested: Date, into updates: inout [AudioHealthUpdate]) {
        guard new != status else { return }
        var time = requested
        if let statusStart, time < statusStart { time = statusStart }
        if let status, let statusStart {
            closed.append(AudioHealthInterval(status: status, interval: DateInterval(start: statusStart, end: time)))
        }
        status = new
        statusStart = time
        updates.append(AudioHealthUpdate(status: new, timestamp: time, sessionId: sessionId))
    }
}
