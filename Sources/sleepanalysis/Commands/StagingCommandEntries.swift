import Foundation

/// `evaluate`: routes to each engine's evaluation by the word after it (`evaluate staging …`).
enum EvaluateCommandEntry: Command {
    static let name = "evaluate"
    static let summary = "accuracy of a model on labelled data (evaluate staging --dataset walch --root DIR)"

    static func run(_ arguments: [String]) async throws {
        switch arguments.first {
        case "staging": try EvaluateStagingCommand.run(Array(arguments.dropFirst()))
        default:
            throw CommandLineError.usage(
                "unknown evaluation '\(arguments.first ?? "")'", usage: EvaluateStagingCommand.specification.usage)
        }
    }
}

/// `features`: routes to each engine's feature export by the word after it (`features staging …`).
enum FeaturesCommandEntry: Command {
    static let name = "features"
    static let summary = "export model inputs for training (features staging --dataset walch --root DIR --out CSV)"

    static func run(_ arguments: [String]) async throws {
        switch arguments.first {
        case "staging": try FeaturesStagingCommand.run(Array(arguments.dropFirst()))
        default:
            throw CommandLineError.usage(
                "unknown export '\(arguments.first ?? "")'", usage: FeaturesStagingCommand.specification.usage)
        }
    }
}
