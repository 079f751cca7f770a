import Foundation

/// A HealthKit sleep-analysis category value (`HKCategoryValueSleepAnalysis`), with HealthKit's raw values.
public enum HealthKitSleepValue: Int, Sendable, Hashable, Codable, CaseIterable, CustomStringConvertible {
    /// In bed (the whole session).
    case inBed = 0
    /// Asleep, stage unknown.
    case asleepUnspecified = 1
    /// Awake.
    case awake = 2
    /// Core sleep: light NREM (N1, N2).
    case asleepCore = 3
    /// Deep sleep (N3).
    case asleepDeep = 4
    /// REM sleep.
    case asleepREM = 5

    /// The HealthKit value for a sleep stage: light → core, deep → deep, REM → REM, awake → awake.
    ///
    /// - Parameter stage: The stage.
    public init(stage: SleepStage) {
        switch stage {
        case .awake: self = .awake
        case .light: self = .asleepCore
        case .deep: self = .asleepDeep
        case .rem: self = .asleepREM
        }
    }

    /// Whether the value counts as sleep (HealthKit's `HKCategoryValueSleepAnalysis.allAsleepValues`).
    public var isAsleep: Bool {
        switch self {
        case .asleepUnspecified, .asleepCore, .asleepDeep, .asleepREM: true
        case .inBed, .awake: false
        }
    }

    /// The case name as HealthKit spells it (`inBed`, `asleepCore`, ...).
    public var description: String {
        switch self {
        case .inBed: "inBed"
        case .asleepUnspecified: "asleepUnspecified"
        case .awake: "awake"
        case .asleepCore: "asleepCore"
        case .asleepDeep: "asleepDeep"
        case .asleepREM: "asleepREM"
        }
    }
}
