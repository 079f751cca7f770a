import Foundation
import SleepAnalysis

/// Writes metrics in the Prometheus text exposition format (version 0.0.4): a `# HELP` and `# TYPE` line per
/// family, then its samples, labels escaped.
struct PrometheusText {
    /// The content type an HTTP endpoint serves it with.
    static let contentType = "text/plain; version=0.0.4; charset=utf-8"

    private(set) var text = ""
    private var families = Set<String>()

    /// Starts a family (once per name; later calls with the same name add nothing).
    ///
    /// - Parameters:
    ///   - name: The metric's name.
    ///   - type: `counter`, `gauge` or `histogram`.
    ///   - help: One line saying what it counts.
    mutating func family(_ name: String, _ type: String, _ help: String) {
        guard families.insert(name).inserted else { return }
        text +=
            "# HELP \(name) \(help.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\n", with: "\\n"))\n"
        text += "# TYPE \(name) \(type)\n"
    }

    /// One sample.
    ///
    /// - Parameters:
    ///   - name: The sample's name (the family's, or with `_bucket`, `_sum`, `_count`).
    ///   - labels: Its labels, in order.
    ///   - value: Its value.
    mutating func sample(_ name: String, _ labels: [(String, String)] = [], _ value: Double) {
        let labelText =
            labels.isEmpty
            ? "" : "{" + labels.map { "\($0.0)=\"\(Self.escaped($0.1))\"" }.joined(separator: ",") + "}"
        text += "\(name)\(labelText) \(Self.format(value))\n"
    }

    /// A histogram's samples: cumulative buckets, `+Inf`, sum and count.
    mutating func histogram(_ name: String, _ histogram: PrometheusHistogram, _ labels: [(String, String)] = []) {
        var cumulative = 0
        for (bound, count) in zip(histogram.bounds, histogram.counts) {
            cumulative += count
            sample(name + "_bucket", labels + [("le", Self.format(bound))], Double(cumulative))
        }
        sample(name + "_bucket", labels + [("le", "+Inf")], Double(histogram.count))
        sample(name + "_sum", labels, histogram.sum)
        sample(name + "_count", labels, Double(histogram.count))
    }

    private static func escaped(_ value: String) -> String {
        value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
            .replacingOccurrences(of: "\n", with: "\\n")
    }

    private static func format(_ value: Double) -> String {
        if value.isNaN { return "NaN" }
        if value.isInfinite { return value > 0 ? "+Inf" : "-Inf" }
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return String(value)
    }
}

/// Observations sorted into fixed buckets (upper bounds, seconds), with their sum and count.
struct PrometheusHistogram: Sendable, Hashable {
    /// The buckets' upper bounds, ascending.
    let bounds: [Double]
    /// Observations per bucket (not cumulative), those above the last bound in none.
    private(set) var counts: [Int]
    /// The sum of all observations.
    private(set) var sum: Double = 0
    /// How many observations.
    private(set) var count: Int = 0

    /// An empty histogram.
    init(bounds: [Double]) {
        self.bounds = bounds.sorted()
        counts = Array(repeating: 0, count: bounds.count)
    }

    /// Adds one observation.
    mutating func observe(_ value: Double) {
        if let index = bounds.firstIndex(where: { value <= $0 }) { counts[index] += 1 }
        sum += value
        count += 1
    }
}
