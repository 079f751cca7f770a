import Foundation
import SleepAnalysis

/// A `SensorDataSink` that keeps everything it is given, for tests of data sources and their consumers.
public final class RecordingSensorSink: SensorDataSink, @unchecked Sendable {
    private let lock = NSLock()
    private var storedItems: [SensorData] = []
    private var finishes: [SleepCycleSdkError?] = []
    private let onDeliver: (@Sendable (SensorData) -> Void)?

    /// Creates an empty sink; `onDeliver` (if any) is called on the source's thread after each item is stored.
    public init(onDeliver: (@Sendable (SensorData) -> Void)? = nil) {
        self.onDeliver = onDeliver
    }

    /// Stores `data`.
    public func deliver(_ data: SensorData) {
        lock.lock()
        storedItems.append(data)
        lock.unlock()
        onDeliver?(data)
    }

    /// Records the end of the source.
    public func finish(error: SleepCycleSdkError?) {
        lock.lock()
        finishes.append(error)
        lock.unlock()
    }

    /// Everything delivered, in order.
    public var items: [SensorData] {
        lock.lock()
        defer { lock.unlock() }
        return storedItems
    }

    /// The errors passed to `finish(error:)`, one per call (nil for a clean end).
    public var finishCalls: [SleepCycleSdkError?] {
        lock.lock()
        defer { lock.unlock() }
        return finishes
    }

    /// The audio chunks delivered, in order.
    public var audioChunks: [AudioChunk] {
        items.compactMap { if case .audio(let chunk) = $0 { chunk } else { nil } }
    }

    /// The accelerometer readings delivered, in order.
    public var accelerometerSamples: [AccelerometerSample] {
        items.flatMap { item -> [AccelerometerSample] in
            if case .accelerometer(let samples) = item { return samples }
            return []
        }
    }

    /// The heart-rate readings delivered, in order.
    public var heartRateSamples: [HeartRateSample] {
        items.flatMap { item -> [HeartRateSample] in
            if case .heartRate(let samples) = item { return samples }
            return []
        }
    }

    /// The activity counts delivered, in order.
    public var activityCountSamples: [ActivityCountSample] {
        items.flatMap { item -> [ActivityCountSample] in
            if case .activityCounts(let samples) = item { return samples }
            return []
        }
    }
}
