import Foundation

/// A trained staging model: one tree ensemble per input variant and context, a stage-sequence model (used or
/// not, per context, as training chose), decision weights, and a clock prior for epochs without sensor input.
/// Loaded from `Models/staging.json`.
package struct StagingModel: Sendable {
    /// The stage order of every probability vector in the model file.
    package static let stageOrder: [SleepStage] = [.awake, .light, .deep, .rem]

    /// The model's name and version, from the file.
    package let name: String
    /// The inputs and contexts the model has a classifier for.
    package var variants: [StagingModelVariantKey] { Array(classifiers.keys) }

    let classifiers: [StagingModelVariantKey: StagingClassifier]
    let sequence: StageSequenceModel
    let decisionWeights: [StagingContext: [Double]]
    let emissionPriorExponents: [StagingContext: Double]
    let sequenceSmoothing: [StagingContext: Bool]
    let clockPrior: ClockPrior
    /// How much 3 seconds of snoring lower the wake probability (0...1; applied once per 3 s of snoring).
    let snoringWakeSuppression: Double
    /// How stages follow the time asleep (Sleep-EDF), applied to every classifier posterior.
    let architecture: SleepArchitecturePrior
    /// Per context, the temperature the published probabilities are scaled with (1: as the classifier gave them).
    let temperatures: [StagingContext: Double]

    /// The model file name inside `Models/` (without extension).
    package static let bundledName = "staging"

    /// Loads a model file. Its sleep-architecture prior is the one the file carries (`train.py --architecture`
    /// embeds the prior its decision weights were tuned with, so a downloaded model has it too); for a file
    /// without one, `staging-architecture.json` in the same folder or, when there is none, the bundled prior.
    ///
    /// - Parameter url: a `staging.json` written by `Tools/staging/train.py`.
    /// - Returns: the model.
    /// - Throws: `SleepCycleSdkError.modelUnavailable` when the file (or the prior it needs) cannot be read,
    ///   `.modelIntegrityCheckFailed` when either is malformed or inconsistent.
    package static func load(from url: URL) throws -> StagingModel {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw SleepCycleSdkError.modelUnavailable("\(url.path) (\(error.localizedDescription))")
        }
        let file: StagingModelFile
        do {
            file = try JSONDecoder().decode(StagingModelFile.self, from: data)
        } catch {
            throw SleepCycleSdkError.modelIntegrityCheckFailed("\(url.lastPathComponent): \(error)")
        }
        let architecture: SleepArchitecturePrior
        if let carried = file.architecture {
            try carried.validate()
            architecture = carried
        } else {
            let beside = url.deletingLastPathComponent().appendingPathComponent(
                SleepArchitecturePrior.bundledFileName)
            architecture =
                FileManager.default.fileExists(atPath: beside.path)
                ? try SleepArchitecturePrior.load(from: beside) : try SleepArchitecturePrior.bundled()
        }
        return try StagingModel(file: file, architecture: architecture)
    }

    /// Loads the model bundled with the library (`Models/staging.json`).
    ///
    /// - Returns: the model.
    /// - Throws: `SleepCycleSdkError.modelUnavailable` when the build carries no staging model.
    package static func bundled() throws -> StagingModel {
        try load(from: try BundledResources.model(bundledName + ".json"))
    }

    init(file: StagingModelFile, architecture: SleepArchitecturePrior) throws {
        guard file.format == StagingModelFile.formatName else {
            throw SleepCycleSdkError.modelIntegrityCheckFailed("not a staging model (format '\(file.format)')")
        }
        guard file.stages == Self.stageOrder.map(\.rawValue) else {
            throw SleepCycleSdkError.modelIntegrityCheckFailed(
                "staging model: stage order must be awake, light, deep, rem")
        }
        var classifiers: [StagingModelVariantKey: StagingClassifier] = [:]
        for variant in file.variants {
            let extractor = StagingFeatureExtractor(inputs: variant.inputs, context: variant.context)
            guard variant.featureNames == extractor.featureNames,
                variant.trees.featureCount == variant.featureNames.count
            else {
                throw SleepCycleSdkError.modelIntegrityCheckFailed(
                    "staging model: features of \(variant.inputs.rawValue)/\(variant.context.rawValue) "
                        + "do not match this library")
            }
            try variant.trees.validate()
            guard variant.trees.classCount == 4 else {
                throw SleepCycleSdkError.modelIntegrityCheckFailed("staging model: classifiers must have 4 classes")
            }
            classifiers[StagingModelVariantKey(inputs: variant.inputs, context: variant.context)] =
                StagingClassifier(extractor: extractor, trees: variant.trees)
        }
        for inputs in StagingInputs.allCases {
            for context in StagingContext.allCases
            where classifiers[StagingModelVariantKey(inputs: inputs, context: context)] == nil {
                throw SleepCycleSdkError.modelIntegrityCheckFailed(
                    "staging model: no classifier for \(inputs.rawValue)/\(context.rawValue)")
            }
        }
        try file.sequence.validate()
        try file.clockPrior.validate()
        guard StagingContext.allCases.allSatisfy({ file.decisionWeights[$0.rawValue]?.count == 4 }) else {
            throw SleepCycleSdkError.modelIntegrityCheckFailed(
                "staging model: decision weights need 4 values per context")
        }
        guard StagingContext.allCases.allSatisfy({ file.emissionPriorExponents[$0.rawValue]?.isFinite == true }) else {
            throw SleepCycleSdkError.modelIntegrityCheckFailed("staging model: an emission prior exponent per context")
        }
        name = file.name
        self.classifiers = classifiers
        sequence = file.sequence
        decisionWeights = Dictionary(
            uniqueKeysWithValues: StagingContext.allCases.map {
                ($0, file.decisionWeights[$0.rawValue] ?? [1, 1, 1, 1])
            })
        emissionPriorExponents = Dictionary(
            uniqueKeysWithValues: StagingContext.allCases.map {
                ($0, file.emissionPriorExponents[$0.rawValue] ?? 1)
            })
        sequenceSmoothing = Dictionary(
            uniqueKeysWithValues: StagingContext.allCases.map {
                ($0, file.sequenceSmoothing?[$0.rawValue] ?? true)
            })
        for (context, calibration) in file.calibration ?? [:] {
            guard StagingContext(rawValue: context) != nil, calibration.temperature.isFinite,
                calibration.temperature >= 0.05, calibration.temperature <= 20
            else {
                throw SleepCycleSdkError.modelIntegrityCheckFailed(
                    "staging model: calibration of '\(context)' needs a known context and a temperature in 0.05...20")
            }
        }
        temperatures = Dictionary(
            uniqueKeysWithValues: StagingContext.allCases.map {
                ($0, file.calibration?[$0.rawValue]?.temperature ?? 1)
            })
        clockPrior = file.clockPrior
        snoringWakeSuppression = min(max(file.snoringWakeSuppression, 0), 1)
        self.architecture = architecture
    }
}

/// Names one classifier of a staging model: which inputs it reads, in which context.
package struct StagingModelVariantKey: Sendable, Hashable {
    /// The sensor inputs.
    package var inputs: StagingInputs
    /// Causal or whole night.
    package var context: StagingContext
}

/// A feature extractor and the trees that read its output.
struct StagingClassifier: Sendable {
    let extractor: StagingFeatureExtractor
    let trees: GradientBoostedTrees

    /// Class posteriors (awake, light, deep, REM) for one epoch of a night.
    func posterior(night: NightSeries, at index: Int) -> [Double] {
        trees.probabilities(extractor.features(of: night, at: index))
    }
}

/// Stage frequencies by time since the session began (bins of `binHours`; the last bin covers the rest).
struct ClockPrior: Sendable, Codable {
    let binHours: Double
    let probabilities: [[Double]]

    /// Stage probabilities `hours` after the session began (before the start: the first bin; NaN: the first bin).
    ///
    /// The bin is clamped before it becomes an `Int`: a model file's `binHours` may be tiny, and the quotient then
    /// exceeds what `Int` holds.
    func probabilities(atHours hours: Double) -> [Double] {
        let position = min(max(hours / binHours, 0), Double(probabilities.count - 1))
        return probabilities[position.isNaN ? 0 : Int(position)]
    }

    func validate() throws {
        guard binHours > 0, !probabilities.isEmpty, probabilities.allSatisfy({ $0.count == 4 }) else {
            throw SleepCycleSdkError.modelIntegrityCheckFailed("staging model: bad clock prior")
        }
    }
}

/// Temperature scaling of a context's published stage probabilities, fitted by `Tools/staging/train.py` on the
/// out-of-fold predictions of its inner cross-validation (training subjects only).
///
/// Each probability is raised to the power 1 / `temperature` and the four are normalised again: above 1 the
/// probabilities move towards each other (the classifier was over-confident), below 1 apart. The most probable
/// stage never changes, so the stages, statistics and kappa are those of the uncalibrated model.
struct StagingCalibration: Codable, Sendable, Hashable {
    /// The temperature (> 0; 1 leaves the probabilities as they are).
    let temperature: Double

    /// `probabilities` scaled by `temperature` and normalised.
    static func tempered(_ probabilities: [Double], temperature: Double) -> [Double] {
        guard temperature != 1 else { return probabilities }
        let logs = probabilities.map { log(max($0, 1e-12)) / temperature }
        let top = logs.max() ?? 0
        return StageSequenceModel.normalised(logs.map { exp($0 - top) })
    }
}

/// The JSON layout of `Models/staging.json`.
struct StagingModelFile: Codable {
    static let formatName = "sleepanalysis-staging-1"

    struct Variant: Codable {
        let inputs: StagingInputs
        let context: StagingContext
        let featureNames: [String]
        let trees: GradientBoostedTrees
    }

    let format: String
    let name: String
    let stages: [String]
    let variants: [Variant]
    let sequence: StageSequenceModel
    let decisionWeights: [String: [Double]]
    let emissionPriorExponents: [String: Double]
    /// Per context: run the stage-sequence model (true, the default) or decide each epoch from its classifier.
    let sequenceSmoothing: [String: Bool]?
    let clockPrior: ClockPrior
    let snoringWakeSuppression: Double
    /// The sleep-architecture prior the decision weights were tuned with (absent in older files).
    let architecture: SleepArchitecturePrior?
    /// Per context (`causal`, `wholeNight`), the probability calibration (absent in older files: temperature 1).
    let calibration: [String: StagingCalibration]?
}
