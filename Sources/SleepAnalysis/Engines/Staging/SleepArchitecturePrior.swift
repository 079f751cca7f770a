import Foundation

/// How sleep stages follow the time asleep, measured on expert hypnograms: per bin of minutes asleep since sleep
/// onset, the shares of light, deep and REM sleep (`Models/staging-architecture.json`, written by
/// `Tools/staging/architecture.py` from the Sleep-EDF hypnograms).
///
/// The stager applies it to every classifier posterior, in real time and for the whole night: each sleep stage's
/// probability is multiplied by its share in the epoch's bin over its share in the whole sleep period (Bayes' rule
/// with a class prior that depends on the time asleep), and the sleep stages are rescaled to their old total, so
/// the probability of wake is unchanged. Minutes asleep are counted from earlier epochs only (30 s for each one
/// whose most probable stage after the decision weights is a sleep stage), so the real-time path can use it. Deep sleep, almost never scored in the first
/// 10 minutes asleep, and REM, almost never in the first 45, then need strong evidence.
struct SleepArchitecturePrior: Sendable, Codable {
    static let formatName = "sleepanalysis-staging-architecture-1"
    /// The file name inside `Models/`.
    static let bundledFileName = "staging-architecture.json"

    /// Ranges measured on a population of nights (from sleep onset).
    struct Range: Sendable, Codable {
        let min: Double
        let p05: Double
        let median: Double
        let p95: Double
        let max: Double
    }

    /// The architecture of one population's nights.
    struct Population: Sendable, Codable {
        let firstDeepMinutes: Range
        let firstRemMinutes: Range
        let deepShare: Range
        let remShare: Range
    }

    let format: String
    let source: String
    /// Where each bin starts, in minutes asleep since sleep onset (ascending, the first 0).
    let binStartMinutesAsleep: [Double]
    /// Per bin: the shares of light, deep and REM among sleep epochs.
    let sharesByMinutesAsleep: [[Double]]
    /// The shares of light, deep and REM over the whole sleep period.
    let overallShares: [Double]
    /// The measured architecture by population (`sleepEDF`, `walch`).
    let population: [String: Population]
    /// Per minute since lights-out (the session's start), the share of nights not yet asleep (Walch nights, floored
    /// and capped so no minute is certain); absent in older files.
    let stillAwakeByMinuteSinceStart: [Double]?

    /// Loads the bundled prior.
    static func bundled() throws -> SleepArchitecturePrior {
        try load(from: try BundledResources.model(bundledFileName))
    }

    /// Loads a prior file.
    static func load(from url: URL) throws -> SleepArchitecturePrior {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw SleepCycleSdkError.modelUnavailable("\(url.path) (\(error.localizedDescription))")
        }
        let prior: SleepArchitecturePrior
        do {
            prior = try JSONDecoder().decode(SleepArchitecturePrior.self, from: data)
        } catch {
            throw SleepCycleSdkError.modelIntegrityCheckFailed("\(url.lastPathComponent): \(error)")
        }
        try prior.validate()
        return prior
    }

    /// Checks shapes and values.
    func validate() throws {
        let positive = { (shares: [Double]) in shares.count == 3 && shares.allSatisfy { $0 > 0 && $0.isFinite } }
        guard format == Self.formatName, binStartMinutesAsleep.first == 0,
            zip(binStartMinutesAsleep, binStartMinutesAsleep.dropFirst()).allSatisfy({ $0 < $1 }),
            sharesByMinutesAsleep.count == binStartMinutesAsleep.count,
            sharesByMinutesAsleep.allSatisfy(positive), positive(overallShares),
            (stillAwakeByMinuteSinceStart ?? [0.5]).allSatisfy({ $0 > 0 && $0 < 1 })
        else {
            throw SleepCycleSdkError.modelIntegrityCheckFailed("staging architecture prior: bad shape or values")
        }
    }

    /// The share of nights still awake `minutes` after lights-out (the last minute's share beyond the curve), or nil
    /// when the file has no curve.
    func stillAwakeShare(minutesSinceStart minutes: Double) -> Double? {
        guard let curve = stillAwakeByMinuteSinceStart, let last = curve.last, minutes.isFinite else { return nil }
        let minute = Int(max(minutes, 0).rounded(.down))
        return minute < curve.count ? curve[minute] : last
    }

    /// The posterior (awake, light, deep, REM) with the sleep stages reweighted for `minutesAsleep`.
    func apply(to posterior: [Double], minutesAsleep: Double) -> [Double] {
        let bin = max(0, (binStartMinutesAsleep.lastIndex { $0 <= minutesAsleep }) ?? 0)
        let shares = sharesByMinutesAsleep[bin]
        let sleep = posterior[1...3].reduce(0, +)
        var reweighted = posterior
        for stage in 1...3 { reweighted[stage] = posterior[stage] * shares[stage - 1] / overallShares[stage - 1] }
        let total = reweighted[1...3].reduce(0, +)
        guard total > 0, total.isFinite else { return posterior }
        for stage in 1...3 { reweighted[stage] *= sleep / total }
        return reweighted
    }
}
