import Foundation
import TestSupport
import XCTest

/// The swift-log bridge of the Logging article type-checks against the library: a stand-in module named `Logging`
/// declares the swift-log names the bridge uses (and the others the library must not clash with), and the
/// article's code, taken from the article itself, is type-checked with `import SleepAnalysis` in Swift 6 mode.
final class SwiftLogBridgeDocTests: XCTestCase {
    /// swift-log's public names the bridge uses, with their swift-log shapes, and the other public types.
    private static let standIn = """
        public protocol LogHandler: Sendable {
            func log(
                level: Logger.Level, message: Logger.Message, metadata: Logger.Metadata?, source: String,
                file: String, function: String, line: UInt)
            subscript(metadataKey _: String) -> Logger.Metadata.Value? { get set }
            var metadata: Logger.Metadata { get set }
            var logLevel: Logger.Level { get set }
        }

        public struct Logger: Sendable {
            public let label: String
            public init(label: String) { self.label = label }

            public enum Level: String, Codable, CaseIterable, Sendable {
                case trace, debug, info, notice, warning, error, critical
            }

            public typealias Metadata = [String: MetadataValue]

            public enum MetadataValue: Sendable {
                case string(String)
                case stringConvertible(any CustomStringConvertible & Sendable)
                case dictionary(Metadata)
                case array([Metadata.Value])
            }

            public struct Message: ExpressibleByStringLiteral, ExpressibleByStringInterpolation, Sendable {
                public let text: String
                public init(stringLiteral value: String) { text = value }
            }

            public func log(
                level: Logger.Level, _ message: @autoclosure () -> Logger.Message,
                metadata: @autoclosure () -> Logger.Metadata? = nil, source: @autoclosure () -> String? = nil,
                file: String = #fileID, function: String = #function, line: UInt = #line
            ) {}
        }

        public enum LoggingSystem {}
        public struct StreamLogHandler {}
        public struct SwiftLogNoOpLogHandler {}
        public struct MultiplexLogHandler {}
        """

    /// Uses swift-log's names unqualified beside the library's, so a clash would be an ambiguity error.
    private static let consumer = """
        let swiftLogLogger: Logger = Logger(label: "check")
        let swiftLogHandler: (any LogHandler)? = nil
        let swiftLogLevel: Logger.Level = .notice
        let swiftLogMetadata: Logger.Metadata = ["k": .string("v")]
        let swiftLogTypes: [Any.Type] = [
            LoggingSystem.self, StreamLogHandler.self, SwiftLogNoOpLogHandler.self, MultiplexLogHandler.self,
        ]
        let threshold: LogLevel = .noLog
        let forwarder: any SleepAnalysisLogHandler = SwiftLogForwarder(logger: swiftLogLogger)
        """

    func test_the_articles_swift_log_bridge_type_checks_beside_swift_logs_names() throws {
        let root = FixturePaths.repositoryRoot
        let article = try String(
            contentsOf: root.appendingPathComponent("Sources/SleepAnalysis/Docs.docc/Logging.md"), encoding: .utf8)
        let blocks = Self.swiftBlocks(of: article)
        let bridge = try XCTUnwrap(blocks.first { $0.contains("import Logging") }, "the article's bridge")
        let usage = try XCTUnwrap(blocks.first { $0.contains("SleepCycleSdk.initialize") }, "the article's usage")
        let moduleFlags = try BuiltModules.compilerFlags()

        let directory = try TemporaryDirectory(prefix: "swift-log-bridge")
        defer { directory.remove() }
        let standIn = directory.url.appendingPathComponent("Logging.swift")
        try Data(Self.standIn.utf8).write(to: standIn)
        let emitted = try BuiltModules.run(
            [
                "swiftc",
                "-emit-module", "-parse-as-library", "-swift-version", "6", "-module-name", "Logging",
                "-emit-module-path", directory.url.appendingPathComponent("Logging.swiftmodule").path, standIn.path,
            ])
        XCTAssertEqual(emitted.status, 0, emitted.output)

        let consumer = directory.url.appendingPathComponent("main.swift")
        let source = [
            bridge, "func useTheBridge(apiKey: String) async throws {", usage, "}", Self.consumer,
        ].joined(separator: "\n")
        try Data(source.utf8).write(to: consumer)
        let checked = try BuiltModules.run(
            ["swiftc", "-typecheck", "-swift-version", "6", "-I", directory.url.path] + moduleFlags + [consumer.path])
        XCTAssertEqual(checked.status, 0, "\(checked.output)\n\(source)")
    }

    /// The contents of the article's ```swift blocks.
    static func swiftBlocks(of markdown: String) -> [String] {
        var blocks: [String] = []
        var current: [Substring]?
        for line in markdown.split(separator: "\n", omittingEmptySubsequences: false) {
            if current == nil, line.trimmingCharacters(in: .whitespaces) == "```swift" {
                current = []
            } else if let lines = current, line.trimmingCharacters(in: .whitespaces) == "```" {
                blocks.append(lines.joined(separator: "\n"))
                current = nil
            } else {
                current?.append(line)
            }
        }
        return blocks
    }
}
