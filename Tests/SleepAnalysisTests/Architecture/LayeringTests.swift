import Foundation
import TestSupport
import XCTest

/// The library is a house of layers (`SourceLayers.order`), and the fleet another on top of it
/// (`SourceLayers.fleetOrder`): no folder uses a folder above it, and the library uses nothing of the fleet's.
final class LayeringTests: XCTestCase {
    private let library = FixturePaths.repositoryRoot.appendingPathComponent("Sources/SleepAnalysis")
    private let fleet = FixturePaths.repositoryRoot.appendingPathComponent("Sources/SleepAnalysisFleet")

    private func sourceFiles(in target: URL? = nil) throws -> [SourceFile] {
        let target = target ?? library
        let enumerator = try XCTUnwrap(FileManager.default.enumerator(at: target, includingPropertiesForKeys: nil))
        var files: [SourceFile] = []
        for case let url as URL in enumerator where url.pathExtension == "swift" {
            let path = String(url.path.dropFirst(target.path.count + 1))
            files.append(SourceFile(path: path, text: try String(contentsOf: url, encoding: .utf8)))
        }
        return files
    }

    func test_noFolderUsesAFolderAboveIt() throws {
        let files = try sourceFiles()
        XCTAssertGreaterThan(files.count, 150, "the library's sources were not found")
        let (unplaced, violations) = LayeringCheck.check(files)
        XCTAssertEqual(unplaced, [], "files in folders that SourceLayers.order does not place")
        XCTAssertEqual(violations.map(\.description), [], "uses of higher layers")
    }

    func test_noFleetFolderUsesAFolderAboveIt() throws {
        let files = try sourceFiles(in: fleet)
        XCTAssertGreaterThan(files.count, 30, "the fleet's sources were not found")
        let (unplaced, violations) = LayeringCheck.check(files, order: SourceLayers.fleetOrder)
        XCTAssertEqual(unplaced, [], "files in folders that SourceLayers.fleetOrder does not place")
        XCTAssertEqual(violations.map(\.description), [], "uses of higher layers")
    }

    func test_theLibraryUsesNeitherTheFleetNorLibpq() throws {
        let fleetTypes = Set(try sourceFiles(in: fleet).flatMap(\.topLevelTypeNames))
        for file in try sourceFiles() {
            XCTAssertFalse(file.code.contains("import CPostgres"), "\(file.path) imports libpq")
            XCTAssertFalse(file.code.contains("import SleepAnalysisFleet"), "\(file.path) imports the fleet")
            let used = file.mentionedTypeNames.intersection(fleetTypes)
            XCTAssertEqual(used, [], "\(file.path) uses the fleet's types")
        }
    }

    func test_onlyTheDSPSeamImportsTheCCore() throws {
        let importers = try sourceFiles().filter { $0.code.contains("import CSleepDSP") }.map(\.path)
        XCTAssertFalse(importers.isEmpty)
        XCTAssertEqual(importers.filter { !$0.hasPrefix("DSP/") }.sorted(), [], "CSleepDSP imported outside DSP/")
    }

    func test_onlyThePostgreSQLFolderImportsLibpq() throws {
        let importers = try sourceFiles(in: fleet).filter { $0.code.contains("import CPostgres") }.map(\.path)
        XCTAssertFalse(importers.isEmpty)
        XCTAssertEqual(
            importers.filter { !$0.hasPrefix("PostgreSQL/") }.sorted(), [], "CPostgres imported outside PostgreSQL/")
    }

    func test_onlyTheHTTPFolderImportsLibmicrohttpd() throws {
        let importers = try sourceFiles(in: fleet).filter { $0.code.contains("import CMicroHTTPD") }.map(\.path)
        XCTAssertFalse(importers.isEmpty)
        XCTAssertEqual(importers.filter { !$0.hasPrefix("HTTP/") }.sorted(), [], "CMicroHTTPD imported outside HTTP/")
        for file in try sourceFiles() {
            XCTAssertFalse(file.code.contains("import CMicroHTTPD"), "\(file.path) imports libmicrohttpd")
        }
    }

    func test_theCheck_findsAnUpwardUse_andAnUnplacedFolder() {
        let files = [
            SourceFile(path: "Support/Queue.swift", text: "struct Queue {\n    let engine: Engine // a use\n}\n"),
            SourceFile(path: "Engines/Events/Engine.swift", text: "final class Engine {\n    let queue = Queue()\n}\n"),
            SourceFile(path: "Elsewhere/Thing.swift", text: "enum Thing {}\n"),
            SourceFile(path: "Time/Clock.swift", text: "/// Engine\nlet text = \"Engine\"\nstruct Clock {}\n"),
        ]
        let (unplaced, violations) = LayeringCheck.check(files)
        XCTAssertEqual(unplaced, ["Elsewhere/Thing.swift"])
        XCTAssertEqual(
            violations,
            [
                LayerViolation(
                    file: "Support/Queue.swift", fileLayer: "Support", typeName: "Engine", typeLayer: "Engines/Events")
            ])
    }
}
