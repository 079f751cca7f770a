import Foundation

/// `evaluate events|staging|composed-staging|stereo …`: each engine's accuracy on labelled data, by the word after `evaluate`.
enum EvaluateCommandEntry: Command {
    static let name = "evaluate"
    static let summary =
        "accuracy of the shipped models on labelled data (evaluate events|staging|composed-staging|stereo …)"
    static let usage = """
        usage: sleepanalysis evaluate events --manifest MANIFEST.tsv --root DIR [--format json|text] [--model FILE]
               sleepanalysis evaluate staging --dataset walch --root DIR [--format json|text]
               sleepanalysis evaluate composed-staging --hypnograms DIR --clips DIR [--nights N] [--hours H]
               sleepanalysis evaluate stereo --scenes DIR [--preset NAME] [--format json|text]

        The options of one evaluation: sleepanalysis help evaluate events (or evaluate events --help).

        """

    /// What it accepts: the evaluations and their specifications.
    static var syntax: CommandSyntax {
        .subcommands(
            usage: usage,
            [
                .init(name: "events", specification: EvaluateEventsCommand.specification),
                .init(name: "staging", specification: EvaluateStagingCommand.specification),
                .init(name: "composed-staging", specification: EvaluateComposedStagingCommand.specification),
                .init(name: "stereo", specification: EvaluateStereoCommand.specification),
            ])
    }

    static func run(_ arguments: [String]) async throws {
        switch arguments.first {
        case "events": try EvaluateEventsCommand.run(Array(arguments.dropFirst()))
        case "staging": try EvaluateStagingCommand.run(Array(arguments.dropFirst()))
        case "composed-staging": try await EvaluateComposedStagingCommand.run(Array(arguments.dropFirst()))
        case "stereo": try await EvaluateStereoCommand.run(Array(arguments.dropFirst()))
        case nil: throw CommandLineError.usage("missing evaluation: events, staging, composed-staging or stereo")
        case let other?: throw CommandLineError.usage("unknown evaluation '\(other)'")
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

        The options of one export: sleepanalysis help features events (or features events --help).

        """

    /// What it accepts: the exports and their specifications.
    static var syntax: CommandSyntax {
        .subcommands(
            usage: usage,
            [
                .init(name: "events", specification: FeaturesEventsCommand.specification),
                .init(name: "staging", specification: FeaturesStagingCommand.specification),
            ])
    }

    static func run(_ arguments: [String]) async throws {
        switch arguments.first {
        case "events": try FeaturesEventsCommand.run(Array(arguments.dropFirst()))
        case "staging": try FeaturesStagingCommand.run(Array(arguments.dropFirst()))
        case nil: throw CommandLineError.usage("missing export: events or staging")
        case let other?: throw CommandLineError.usage("unknown export '\(other)'")
        }
    }
}

/// `queue migrate|submit|status|list|metrics|prune|retry|cancel|result …`: the PostgreSQL night queue, by the word
/// after `queue`.
enum QueueCommandEntry: Command {
    static let name = "queue"
    static let summary =
        "the PostgreSQL night queue (queue migrate|submit|status|list|metrics|prune|retry|cancel|result)"
    static let usage = """
        usage: sleepanalysis queue migrate                       (as the owner: the only command issuing DDL)
               sleepanalysis queue submit AUDIO --start ISO8601 --subject ID [--accelerometer CSV]
                                   [--heart-rate CSV] [--queue NAME] [--priority N] [--run-at ISO8601]
                                   [--key KEY] [--max-attempts N] [--input-root DIR[:DIR…]]
                 (AUDIO and the CSVs: paths every worker sees, or http(s) URLs the worker downloads)
               sleepanalysis queue status [--format json|text]
               sleepanalysis queue list [--state S[,S…]] [--queue NAME] [--limit N] [--format json|text]
               sleepanalysis queue metrics                       (Prometheus text)
               sleepanalysis queue prune --older-than DURATION [--including-nights]
               sleepanalysis queue retry JOB_ID
               sleepanalysis queue cancel JOB_ID
               sleepanalysis queue result JOB_ID
          each with [--database URL | --database-file FILE] (default $SLEEPANALYSIS_DATABASE_URL)

        """

    /// What it accepts: the queue operations and their specifications.
    static var syntax: CommandSyntax {
        .subcommands(
            usage: usage,
            [
                .init(name: "migrate", specification: QueueMigrateCommand.specification),
                .init(name: "submit", specification: QueueSubmitCommand.specification),
                .init(name: "status", specification: QueueStatusCommand.specification),
                .init(name: "list", specification: QueueListCommand.specification),
                .init(name: "metrics", specification: QueueMetricsCommand.specification),
                .init(name: "prune", specification: QueuePruneCommand.specification),
                .init(name: "retry", specification: QueueJobCommand.specification),
                .init(name: "cancel", specification: QueueJobCommand.specification),
                .init(name: "result", specification: QueueResultCommand.specification),
            ])
    }

    /// Runs the queue command named by the first argument.
    static func run(_ arguments: [String]) async throws {
        let rest = Array(arguments.dropFirst())
        switch arguments.first {
        case "migrate": try await QueueMigrateCommand.run(rest)
        case "submit": try await QueueSubmitCommand.run(rest)
        case "status": try await QueueStatusCommand.run(rest)
        case "list": try await QueueListCommand.run(rest)
        case "metrics": try await QueueMetricsCommand.run(rest)
        case "prune": try await QueuePruneCommand.run(rest)
        case "retry", "cancel": try await QueueJobCommand.run(arguments)
        case "result": try await QueueResultCommand.run(rest)
        case "-h", "--help", "help": print(usage, terminator: "")
        default: throw CommandLineError.usage("unknown queue command '\(arguments.first ?? "")'", usage: usage)
        }
    }
}
