import Foundation

/// The recent frames of one sensor, on a regular time grid, with a validity flag per frame.
///
/// Frame `i` of the current run ends at `origin + (i + 1) * frameSeconds`. A gap in the input starts a new run.
struct FrameWindow {
    /// Values per frame.
    let channelCount: Int
    /// Frame length (seconds).
    let frameSeconds: Double
    /// The most frames kept.
    let capacity: Int
    /// The start of frame 0 of the current run; nil before any data.
    private(set) var origin: Date?
    /// Index (in the run) of the first frame kept.
    private(set) var firstIndex = 0
    private var values: [Float] = []
    private var valid: [UInt8] = []

    /// Creates an empty window keeping up to `capacity` frames.
    init(channelCount: Int, frameSeconds: Double, capacity: Int) {
        self.channelCount = channelCount
        self.frameSeconds = frameSeconds
        self.capacity = capacity
    }

    /// Frames appended since the run began.
    var endIndex: Int { firstIndex + valid.count }

    /// The end of the last frame, or nil before any data.
    var latestTime: Date? { origin.map { $0.addingTimeInterval(Double(endIndex) * frameSeconds) } }

    /// Drops every frame and starts a new run whose frame 0 begins at `origin`.
    mutating func restart(at origin: Date) {
        self.origin = origin
        firstIndex = 0
        values.removeAll(keepingCapacity: true)
        valid.removeAll(keepingCapacity: true)
    }

    /// Appends frames (frame-major) that are all valid or all invalid.
    mutating func append(_ frames: [Float], isValid: Bool = true) {
        let count = frames.count / channelCount
        values.append(contentsOf: frames.prefix(count * channelCount))
        valid.append(contentsOf: repeatElement(isValid ? 1 : 0, count: count))
        trim()
    }

    /// Marks the last `count` frames invalid.
    mutating func invalidateLast(_ count: Int) {
        let lower = max(0, valid.count - count)
        for i in lower..<valid.count { valid[i] = 0 }
    }

    /// The frames ending in `(end - length, end]`, their validity, and the seconds they span.
    func frames(endingAt end: Date, length: Double) -> (values: [Float], valid: [UInt8], seconds: Double) {
        guard let origin else { return ([], [], 0) }
        let lastIndex = Int(((end.timeIntervalSince(origin)) / frameSeconds + 1e-6).rounded(.down)) - 1
        let wanted = Int((length / frameSeconds).rounded())
        let upper = min(lastIndex, endIndex - 1)
        let lower = max(firstIndex, lastIndex - wanted + 1)
        guard upper >= lower else { return ([], [], 0) }
        let a = lower - firstIndex, b = upper - firstIndex + 1
        return (
            Array(values[(a * channelCount)..<(b * channelCount)]), Array(valid[a..<b]),
            Double(b - a) * frameSeconds
        )
    }

    private mutating func trim() {
        let excess = valid.count - capacity
        guard excess > 0 else { return }
        values.removeFirst(excess * channelCount)
        valid.removeFirst(excess)
        firstIndex += excess
    }
}
