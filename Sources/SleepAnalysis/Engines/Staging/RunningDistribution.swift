import Foundation

/// The values seen so far in a night, kept sorted, for per-night normalisation (ranks, quantiles, mean).
///
/// Inserting is O(n); queries are O(log n). A night has at most a few thousand epochs.
struct RunningDistribution: Sendable {
    private(set) var sorted: [Double] = []
    private(set) var sum: Double = 0

    /// Number of values.
    var count: Int { sorted.count }

    /// Adds a finite value (non-finite values are ignored).
    mutating func insert(_ value: Double) {
        guard value.isFinite else { return }
        sorted.insert(value, at: lowerBound(value))
        sum += value
    }

    /// Mean of the values, nil when empty.
    var mean: Double? { sorted.isEmpty ? nil : sum / Double(sorted.count) }

    /// Mid-rank percentile of `value` among the values: (below + ties / 2) / count, nil when empty.
    func percentileRank(of value: Double) -> Double? {
        guard !sorted.isEmpty, value.isFinite else { return nil }
        let below = lowerBound(value)
        let notAbove = upperBound(value)
        return (Double(below) + Double(notAbove - below) / 2) / Double(sorted.count)
    }

    /// Quantile `q` (0...1) with linear interpolation, nil when empty.
    func quantile(_ q: Double) -> Double? {
        guard !sorted.isEmpty else { return nil }
        let position = min(max(q, 0), 1) * Double(sorted.count - 1)
        let lower = Int(position.rounded(.down))
        let upper = min(lower + 1, sorted.count - 1)
        let fraction = position - Double(lower)
        return sorted[lower] + (sorted[upper] - sorted[lower]) * fraction
    }

    private func lowerBound(_ value: Double) -> Int {
        var low = 0
        var high = sorted.count
        while low < high {
            let mid = (low + high) / 2
            if sorted[mid] < value { low = mid + 1 } else { high = mid }
        }
        return low
    }

    private func upperBound(_ value: Double) -> Int {
        var low = 0
        var high = sorted.count
        while low < high {
            let mid = (low + high) / 2
            if sorted[mid] <= value { low = mid + 1 } else { high = mid }
        }
        return low
    }
}
