import Foundation
import TestSupport
import XCTest

/// Compiling a consumer's code against the modules this test binary was built beside (`.build/<triple>/debug`),
/// with the flags SwiftPM passes for the C modules they import: for the tests that check what compiles
/// (listeners, the swift-log bridge, public name collisions).
enum BuiltModules {
    /// The build products directory holding the test binary, `Modules/` and the C targets' module maps.
    ///
    /// - Throws: `XCTSkip` when no `SleepAnalysis.swiftmodule` is there (the tests were not built by SwiftPM).
    static func productsDirectory() throws -> URL {
        let products = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
        let module = products.appendingPathComponent("Modules/SleepAnalysis.swiftmodule")
        guard FileManager.default.fileExists(atPath: module.path) else {
            throw XCTSkip("needs the SleepAnalysis module beside the tests (\(module.path); swift build --build-tests)")
        }
        return products
    }

    /// `-I` for the built Swift modules, each C target's module map (in `Sources/C*` and the products'
    /// `C*.build`), our C headers, and the header folders pkg-config names for the system libraries.
    static func compilerFlags() throws -> [String] {
        let products = try productsDirectory()
        let sources = FixturePaths.repositoryRoot.appendingPathComponent("Sources")
        var maps: [URL] = []
        for name in try FileManager.default.contentsOfDirectory(atPath: sources.path) where name.hasPrefix("C") {
            maps.append(sources.appendingPathComponent("\(name)/module.modulemap"))
        }
        for name in try FileManager.default.contentsOfDirectory(atPath: products.path)
        where name.hasPrefix("C") && name.hasSuffix(".build") {
            maps.append(products.appendingPathComponent("\(name)/module.modulemap"))
        }
        var flags = ["-I", products.appendingPathComponent("Modules").path]
        flags += maps.filter { FileManager.default.fileExists(atPath: $0.path) }.flatMap {
            ["-Xcc", "-fmodule-map-file=\($0.path)"]
        }
        for target in ["CSleepDSP", "CALSAMessages"] {
            flags += ["-Xcc", "-I" + sources.appendingPathComponent("\(target)/include").path]
        }
        let headers = try run(["pkg-config", "--cflags-only-I"] + systemPackages)
        XCTAssertEqual(headers.status, 0, "pkg-config does not know the system libraries:\n\(headers.output)")
        flags += headers.output.split(whereSeparator: \.isWhitespace).flatMap { ["-Xcc", String($0)] }
        return flags
    }

    /// The pkg-config packages of the system-library targets (Package.swift).
    private static let systemPackages = [
        "fftw3f", "sndfile", "ogg", "opus", "alsa", "sqlite3", "libsodium", "soxr", "libpq", "libmicrohttpd",
    ]

    /// Runs a command found on `PATH` to completion.
    ///
    /// - Returns: Its exit status, and its standard output and error together.
    static func run(_ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}
