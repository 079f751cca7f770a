import Foundation
import TestSupport
import XCTest

/// An application imports our modules beside the packages a service usually links (postgres-nio,
/// swift-argument-parser, swift-log): their public names must not collide with ours, so that the application can keep using
/// theirs unqualified.
///
/// The test compiles stand-ins for those modules (their public names, empty) and type-checks a consumer that
/// imports them with `SleepAnalysis` and `SleepAnalysisFleet` as built beside the tests.
final class PublicNameCollisionTests: XCTestCase {
    private var directory: TemporaryDirectory!

    override func setUpWithError() throws {
        directory = try TemporaryDirectory(prefix: "sleepanalysis-collisions")
    }

    override func tearDown() {
        directory?.remove()
    }

    /// The stand-ins: module name and source, the public types of the real package a consumer names most.
    private let standIns: [(module: String, source: String)] = [
        (
            "PostgresNIO",
            """
            public struct PostgresError: Error {}
            public final class PostgresConnection {}
            public struct PostgresRow {}
            public protocol PostgresDatabase {}
            public struct PostgresQuery {}
            public final class PostgresClient {}
            public struct PostgresData {}
            public struct PSQLError: Error {}
            """
        ),
        (
            "Logging",
            """
            public struct Logger {
                public enum Level { case trace, debug, info, notice, warning, error, critical }
                public typealias Metadata = [String: MetadataValue]
                public enum MetadataValue { case string(String) }
                public var label: String
            }
            public protocol LogHandler {}
            public enum LoggingSystem {}
            public struct StreamLogHandler: LogHandler {}
            public struct SwiftLogNoOpLogHandler: LogHandler {}
            public struct MultiplexLogHandler: LogHandler {}
            """
        ),
        (
            "ArgumentParser",
            """
            public protocol ParsableCommand {}
            public protocol AsyncParsableCommand: ParsableCommand {}
            public protocol ParsableArguments {}
            public struct CommandConfiguration {}
            public struct ValidationError: Error {}
            public struct ExitCode: Error {}
            public struct CleanExit: Error {}
            public struct Option {}
            public struct Flag {}
            public struct Argument {}
            public struct OptionGroup {}
            public struct ArgumentHelp {}
            public struct NameSpecification {}
            public protocol ExpressibleByArgument {}
            public protocol EnumerableFlag {}
            public struct CompletionKind {}
            public struct CompletionShell {}
            """
        ),
    ]

    /// A consumer naming every stand-in type unqualified, and some of ours.
    private let consumer = """
        import ArgumentParser
        import Logging
        import PostgresNIO
        import SleepAnalysis
        import SleepAnalysisFleet

        struct Service {
            var connection: PostgresConnection
            var error: PostgresError
            var row: PostgresRow
            var database: any PostgresDatabase
            var query: PostgresQuery
            var client: PostgresClient
            var data: PostgresData
            var clientError: PSQLError
            var command: any AsyncParsableCommand
            var arguments: any ParsableArguments
            var configuration: CommandConfiguration
            var failures: (ValidationError, ExitCode, CleanExit)
            var declarations: (Option, Flag, Argument, OptionGroup, ArgumentHelp, NameSpecification)
            var parsing: (any ExpressibleByArgument, any EnumerableFlag, CompletionKind, CompletionShell)
            var queue: NightQueue
            var worker: NightWorker
            var databaseError: FleetDatabaseError
            var address: FleetDatabaseAddress
            var config: SleepAnalysisConfig
            var logger: Logger
            var level: Logger.Level
            var metadata: Logger.Metadata
            var handlers: (any LogHandler, StreamLogHandler, SwiftLogNoOpLogHandler, MultiplexLogHandler)
            var ourHandler: any SleepAnalysisLogHandler
            var ourLevel: LogLevel
        }
        """

    func test_ourModules_typeCheckBesidePostgresNIOSwiftLogAndArgumentParser() throws {
        let modules = try BuiltModules.productsDirectory().appendingPathComponent("Modules")
        guard
            FileManager.default.fileExists(
                atPath: modules.appendingPathComponent("SleepAnalysisFleet.swiftmodule").path)
        else {
            throw XCTSkip("needs the modules built beside the tests in \(modules.path) (swift build --build-tests)")
        }
        let standInModules = directory.url.appendingPathComponent("Modules")
        try FileManager.default.createDirectory(at: standInModules, withIntermediateDirectories: true)
        for standIn in standIns {
            let source = directory.url.appendingPathComponent("\(standIn.module).swift")
            try standIn.source.write(to: source, atomically: true, encoding: .utf8)
            let output = try BuiltModules.run(
                [
                    "swiftc", "-emit-module", "-parse-as-library", "-module-name", standIn.module, source.path,
                    "-emit-module-path", standInModules.appendingPathComponent("\(standIn.module).swiftmodule").path,
                ])
            XCTAssertEqual(output.status, 0, "the stand-in \(standIn.module) did not compile:\n\(output.output)")
        }
        let source = directory.url.appendingPathComponent("Consumer.swift")
        try consumer.write(to: source, atomically: true, encoding: .utf8)
        let checked = try BuiltModules.run(
            ["swiftc", "-typecheck", "-I", standInModules.path] + (try BuiltModules.compilerFlags()) + [source.path])
        XCTAssertEqual(
            checked.status, 0, "a consumer of our modules and the stand-ins does not type-check:\n\(checked.output)")
    }
}
