import Foundation

/// `evaluate events|staging|stereo …`: each engine's accuracy on labelled data, by the word after `evaluate`.
enum EvaluateCommandEntry: Command {
    static let name = "evaluate"
    static let summary = "accuracy of the shipped models on labelled data (evaluate events|staging|stereo …)"
    static let usage = """
        usage: sleepanalysis evaluate events --manifest MANIFEST.tsv --root DIR [--format json|text]
               sleepanalysis evaluate staging --dataset walch --root DIR [--format json|text]
               sleepanalysis evaluate stereo --scenes DIR [--preset NAME] [--format json|text]

        """

    static func run(_ arguments: [String]) async throws {
        switch arguments.first {
        case "events": try EvaluateCommand.run(arguments)
        case "staging": try EvaluateStagingCommand.run(Array(arguments.dropFirst()))
        case "stereo": try await EvaluateStereoCommand.run(Array(arguments.dropFirst()))
        default: throw CommandLineError.usage("unknown evaluation '\(arguments.first ?? "")'", usage: usage)
        }
    }
}

/// `features events|staging …`: exports the model inputs the training tools read, by the word after `features`.
enum FeaturesCommandEntry: Command {
    static let name = "features"
    static let summary = "export model inputs for the training tools (features events|staging …)"
    static let usage = """
        usage: sleepanalysis features events --list FILES.txt --out DIR
               sleepanalysis features staging --dataset walch --root DIR --out CSV

        """

    static func run(_ arguments: [String]) async throws {
        switch arguments.first {
        case "events": try FeaturesCommand.run(Array(arguments.dropFirst()))
        case "staging": try FeaturesStagingCommand.run(Array(arguments.dropFirst()))
        default: throw CommandLineError.usage("unknown export '\(arguments.first ?? "")'", usage: usage)
        }
    }
}
