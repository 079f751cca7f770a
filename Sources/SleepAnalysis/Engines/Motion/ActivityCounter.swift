import Foundation

/// Turns raw accelerometer samples into per-epoch activity counts.
///
/// Algorithm (after the counts of Walch et al. 2019, which the staging model was trained on):
/// 1. magnitude `√(x² + y² + z²)` in g, which does not depend on how the device lies;
/// 2. band-pass 0.25–3 Hz (`MagnitudeBandPass`: Butterworth high-pass then low-pass, coefficients from the
///    sample rate, so any rate of about 10–100 Hz gives the same count for the same motion);
/// 3. raw count = 100 × Σ |filtered| × Δt over the samples whose timestamp falls in the 30-second epoch
///    (g·s × 100: the integral of rectified motion, independent of the sample rate);
/// 4. a dead band: the raw count minus 1.2 times the night's running noise floor (the 10th percentile of the last
///    30 minutes' raw counts; none in the first 5 minutes), at least 0 (`ActivityNoiseFloor`), so a phone on the
///    mattress, which feels breathing and sensor noise in every epoch, counts 0 when the sleeper lies still, as an
///    actigraph does;
/// 5. Gaussian smoothing over this and the previous 5 minutes' epochs (σ = 50 s, `CausalCountSmoother`), as the
///    training counts were smoothed, but causal: an epoch's count never depends on later samples.
///
/// Counts are linear in the motion's amplitude (the floor scales with it); the stager normalises them per night
/// (rank and mean scale), so a phone on the mattress (small counts) and a wrist device (large counts) give the same
/// model inputs. The sample rate is given, or estimated from the timestamps (`AccelerometerRateEstimator`).
package struct ActivityCounter: Sendable {
    /// The origin of the 30-second epoch grid.
    package let sessionStart: Date

    private var sampleRate: Double?
    private var rateEstimator = AccelerometerRateEstimator()
    private var filter: MagnitudeBandPass?
    private var sums: [Int: Double] = [:]
    private var closedThrough = -1
    private var noiseFloor = ActivityNoiseFloor()
    private var smoother = CausalCountSmoother()

    /// Creates a counter.
    ///
    /// - Parameters:
    ///   - sessionStart: the start of the first epoch.
    ///   - sampleRate: samples per second, or nil to estimate it from the timestamps (`AccelerometerRateEstimator`).
    /// - Throws: `SleepCycleSdkError.invalidConfiguration` when the rate is not positive and finite.
    package init(sessionStart: Date, sampleRate: Double? = nil) throws {
        if let sampleRate, !(sampleRate.isFinite && sampleRate > 0) {
            throw SleepCycleSdkError.invalidConfiguration("accelerometer sample rate must be positive")
        }
        self.sessionStart = sessionStart
        self.sampleRate = sampleRate
        if let sampleRate { filter = MagnitudeBandPass(sampleRate: sampleRate) }
    }

    /// The sample rate in use, nil until known.
    package var estimatedSampleRate: Double? { sampleRate }

    /// Adds samples (in time order); samples before the session start or in an epoch already closed are ignored.
    ///
    /// - Parameter samples: accelerometer readings, in g.
    package mutating func add(_ samples: [AccelerometerSample]) {
        guard filter == nil else {
            samples.forEach { accumulate($0) }
            return
        }
        if let estimate = rateEstimator.add(samples) { start(estimate) }
    }

    /// Returns the counts of every epoch that ends at or before `time` and received samples, oldest first.
    ///
    /// - Parameter time: the current time of the data (not the wall clock, so a replay matches live).
    /// - Returns: one count per closed epoch with data; each epoch is returned once.
    package mutating func closeEpochs(through time: Date) -> [ActivityCountSample] {
        let last = Int((time.timeIntervalSince(sessionStart) / EpochFeatures.duration).rounded(.down)) - 1
        return close(through: last)
    }

    /// Returns the counts of every remaining epoch (at the end of the input).
    ///
    /// - Returns: one count per epoch with data, oldest first.
    package mutating func finish() -> [ActivityCountSample] {
        if filter == nil, let estimate = rateEstimator.finish() { start(estimate) }
        return close(through: sums.keys.max() ?? closedThrough)
    }

    private mutating func close(through last: Int) -> [ActivityCountSample] {
        let ready = sums.keys.filter { $0 <= last }.sorted()
        closedThrough = max(closedThrough, last)
        return ready.map { epoch in
            let raw = sums.removeValue(forKey: epoch) ?? 0
            let count = smoother.smooth(noiseFloor.removeFloor(from: raw), epoch: epoch)
            return ActivityCountSample(
                timestamp: sessionStart.addingTimeInterval(Double(epoch) * EpochFeatures.duration),
                activityCount: count)
        }
    }

    private mutating func accumulate(_ sample: AccelerometerSample) {
        guard var filter, let sampleRate else { return }
        let magnitude = (sample.x * sample.x + sample.y * sample.y + sample.z * sample.z).squareRoot()
        guard magnitude.isFinite else { return }
        let filtered = filter.process(magnitude)
        self.filter = filter
        let offset = sample.timestamp.timeIntervalSince(sessionStart)
        guard offset >= 0 else { return }
        let epoch = Int((offset / EpochFeatures.duration).rounded(.down))
        guard epoch > closedThrough else { return }
        sums[epoch, default: 0] += 100 * abs(filtered) / sampleRate
    }

    /// Starts filtering at the estimated rate, beginning with the samples held while it was estimated.
    private mutating func start(_ estimate: (rate: Double, samples: [AccelerometerSample])) {
        sampleRate = estimate.rate
        filter = MagnitudeBandPass(sampleRate: estimate.rate)
        estimate.samples.forEach { accumulate($0) }
    }
}
