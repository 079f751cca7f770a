import Foundation

/// A percentile interval of a figure over bootstrap resamples of subjects (or any other group).
package struct BootstrapInterval: Sendable, Hashable, Codable {
    /// Lower end (the (1 − level) / 2 quantile of the resampled figures).
    package var lower: Double
    /// Upper end (the (1 + level) / 2 quantile).
    package var upper: Double
    /// Coverage the interval was computed for (0.95).
    package var level: Double
    /// Resamples drawn.
    package var replicates: Int
}

/// Bootstrap by group: the groups (subjects) are drawn with replacement, as many as there are, and the figure is
/// computed on each resample from the drawn groups' pooled tallies. Deterministic for a seed (SplitMix64), so a
/// card's interval is reproduced by its command.
package enum SubjectBootstrap {
    /// The percentile interval of `statistic` over `replicates` resamples of `groups`.
    ///
    /// - Parameters:
    ///   - groups: One tally per group (subject).
    ///   - replicates: Resamples (default 1,000).
    ///   - level: Coverage (default 0.95).
    ///   - seed: Seed of the resampling.
    ///   - statistic: The figure of a resample (non-finite values are left out).
    /// - Returns: The interval, or nil without groups or finite figures.
    package static func interval<Group>(
        groups: [Group], replicates: Int = 1000, level: Double = 0.95, seed: UInt64 = 49,
        statistic: ([Group]) -> Double
    ) -> BootstrapInterval? {
        guard !groups.isEmpty, replicates > 0 else { return nil }
        var state = seed
        func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        var figures: [Double] = []
        figures.reserveCapacity(replicates)
        for _ in 0..<replicates {
            let sample = (0..<groups.count).map { _ in groups[Int(next() % UInt64(groups.count))] }
            let figure = statistic(sample)
            if figure.isFinite { figures.append(figure) }
        }
        guard !figures.isEmpty else { return nil }
        figures.sort()
        func quantile(_ q: Double) -> Double {
            let position = q * Double(figures.count - 1)
            let low = Int(position.rounded(.down)), high = Int(position.rounded(.up))
            return figures[low] + (figures[high] - figures[low]) * (position - Double(low))
        }
        return BootstrapInterval(
            lower: quantile((1 - level) / 2), upper: quantile((1 + level) / 2), level: level, replicates: replicates)
    }
}
