import Foundation
import TestSupport
import XCTest

/// An application imports our modules beside the packages a service usually links (postgres-nio,
/// swift-argument-parser): their public names must not collide with ours, so that the application can keep using
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
        }
        """

    func test_ourModules_typeCheckBesidePostgresNIOAndArgumentParser() throws {
        let products = productsDirectory()
        let modules = products.appendingPathComponent("Modules")
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
            let output = try run(
                "swiftc",
                [
                    "-emit-module", "-parse-as-library", "-module-name", standIn.module, source.path,
                    "-emit-module-path", standInModules.appendingPathComponent("\(standIn.module).swiftmodule").path,
                ])
            XCTAssertEqual(output.status, 0, "the stand-in \(standIn.module) did not compile:\n\(output.text)")
        }
        let source = directory.url.appendingPathComponent("Consumer.swift")
        try consumer.write(to: source, atomically: true, encoding: .utf8)
        let checked = try run(
            "swiftc",
            ["-typecheck", "-I", standInModules.path, "-I", modules.path]
                + (try cModuleFlags(products: products)) + [source.path])
        XCTAssertEqual(
            checked.status, 0, "a consumer of our modules and the stand-ins does not type-check:\n\(checked.text)")
    }

    /// Where SwiftPM put the test binary and the modules (`.build/<triple>/debug`).
    private func productsDirectory() -> URL {
        #if os(Linux)
            return URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
        #else
            return Bundle(for: Self.self).bundleURL.deletingLastPathComponent()
        #endif
    }

    /// The flags that let the compiler load the C modules our modules import, as SwiftPM passes them: each C
    /// target's module map, and the header folders pkg-config names (libpq's headers are in a folder of their own).
    private func cModuleFlags(products: URL) throws -> [String] {
        let sources = FixturePaths.repositoryRoot.appendingPathComponent("Sources")
        var maps: [URL] = []
        for name in try FileManager.default.contentsOfDirectory(atPath: sources.path) where name.hasPrefix("C") {
            maps.append(sources.appendingPathComponent(name).appendingPathComponent("module.modulemap"))
        }
        for name in try FileManager.default.contentsOfDirectory(atPath: products.path)
        where name.hasPrefix("C") && name.hasSuffix(".build") {
            maps.append(products.appendingPathComponent(name).appendingPathComponent("module.modulemap"))
        }
        var flags = maps.filter { FileManager.default.fileExists(atPath: $0.path) }.flatMap {
            ["-Xcc", "-fmodule-map-file=\($0.path)"]
        }
        let includes = try run("pkg-config", ["--cflags-only-I", "libpq"])
        XCTAssertEqual(includes.status, 0, "pkg-config does not know libpq:\n\(includes.text)")
        flags += includes.text.split(whereSeparator: \.isWhitespace).flatMap { ["-Xcc", String($0)] }
        return flags
    }

    /// Runs a program found on `PATH`, returning its exit status and what it printed (both streams).
    private func run(_ program: String, _ arguments: [String]) throws -> (status: Int32, text: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [program] + arguments
        let log = directory.url.appendingPathComponent("\(program)-\(UUID().uuidString).log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        let handle = try FileHandle(forWritingTo: log)
        defer { try? handle.close() }
        process.standardOutput = handle
        process.standardError = handle
        try process.run()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: try Data(contentsOf: log), as: UTF8.self))
    }
}
