import CommandLineKit
import XCTest

/// The parser the three tools share reads a command line as swift-argument-parser tools do, and rejects a wrong
/// one with a message and the command's usage.
final class ArgumentParserTests: XCTestCase {
    private let specification = ArgumentSpecification(
        options: ["format", "hours"], flags: ["quiet"], shortNames: ["f": "format", "q": "quiet"],
        positionals: ["AUDIO"], usage: "usage: tool AUDIO [--format F] [--hours N] [--quiet]\n")

    func test_optionsTakeTheirValueAfterASpaceOrAnEqualsSign_andShortNamesStandForLongOnes() throws {
        let parsed = try ArgumentParser.parse(
            ["night.wav", "--format", "json", "--hours=2.5", "-q"], specification)
        XCTAssertEqual(parsed.positionals, ["night.wav"])
        XCTAssertEqual(parsed.options, ["format": "json", "hours": "2.5"])
        XCTAssertEqual(parsed.flags, ["quiet"])
        XCTAssertEqual(try ArgumentParser.parse(["-f", "csv", "a"], specification).option("format"), "csv")
    }

    func test_theLastOccurrenceOfAnOptionWins_andAnEmptyInlineValueIsAValue() throws {
        let parsed = try ArgumentParser.parse(["a", "--format", "json", "--format=csv", "--hours="], specification)
        XCTAssertEqual(parsed.option("format"), "csv")
        XCTAssertEqual(parsed.option("hours"), "")
    }

    func test_doubleDashEndsTheOptions_andASingleDashIsAPositional() throws {
        let parsed = try ArgumentParser.parse(["--quiet", "--", "--format", "-q"], allowingExtras)
        XCTAssertEqual(parsed.flags, ["quiet"])
        XCTAssertEqual(parsed.positionals, ["--format", "-q"])
        XCTAssertEqual(try ArgumentParser.parse(["-"], specification).positionals, ["-"])
    }

    func test_helpIsReportedAsAFlag_andSkipsThePositionalCheck() throws {
        XCTAssertTrue(try ArgumentParser.parse(["--help"], specification).flag("help"))
        XCTAssertTrue(try ArgumentParser.parse(["-h", "--format", "json"], specification).flag("help"))
    }

    func test_aWrongCommandLine_throwsAUsageErrorWithTheMessageAndTheUsage() {
        let cases: [(arguments: [String], message: String)] = [
            (["a", "--formt", "json"], "unknown option --formt"),
            (["a", "-x"], "unknown option -x"),
            (["a", "-fq"], "unknown option -fq"),
            (["a", "--format"], "--format needs a value"),
            (["a", "--quiet=yes"], "--quiet takes no value"),
            ([], "missing argument: AUDIO"),
            (["a", "b", "c"], "unexpected argument: b c"),
        ]
        for (arguments, message) in cases {
            XCTAssertThrowsError(try ArgumentParser.parse(arguments, specification), "\(arguments)") { error in
                XCTAssertEqual(
                    error as? ArgumentUsageError, ArgumentUsageError(message, usage: specification.usage),
                    "\(arguments)")
            }
        }
        XCTAssertEqual(ArgumentUsageError.exitStatus, 64)
    }

    func test_valuesAreCheckedAsTheyAreRead() throws {
        let parsed = try ArgumentParser.parse(["a", "--hours", "two", "--format", "xml"], specification)
        XCTAssertThrowsError(try parsed.option("hours", as: Double.self)) { error in
            XCTAssertEqual((error as? ArgumentUsageError)?.message, "--hours: 'two' is not a valid Double")
        }
        XCTAssertThrowsError(try parsed.choice("format", from: ["json", "csv"], default: "json")) { error in
            XCTAssertEqual((error as? ArgumentUsageError)?.message, "--format: 'xml'; expected one of json, csv")
        }
        let bare = try ArgumentParser.parse(["a"], specification)
        XCTAssertNil(try bare.option("hours", as: Double.self))
        XCTAssertEqual(try bare.choice("format", from: ["json", "csv"], default: "json"), "json")
        XCTAssertThrowsError(try bare.required("format")) { error in
            XCTAssertEqual(error as? ArgumentUsageError, ArgumentUsageError("--format is required", usage: bare.usage))
        }
        XCTAssertEqual(try parsed.required("format"), "xml")
    }

    func test_theSpecificationListsItsSpellingsForCompletion() {
        XCTAssertEqual(specification.spellings, ["--format", "--hours", "--quiet", "-f", "-q"])
        XCTAssertEqual(specification.valueSpellings, ["--format", "--hours", "-f"])
        XCTAssertEqual(specification.shortName(of: "quiet"), "q")
        XCTAssertNil(specification.shortName(of: "hours"))
    }

    private var allowingExtras: ArgumentSpecification {
        var specification = specification
        specification.allowsExtraPositionals = true
        return specification
    }
}
