import ArgumentParser
import XCTest
@testable import apicli

/// The hand parser (Sources/apicli/HandParser.swift) takes only the shapes it knows, and takes them
/// as argument-parser does: for every line it accepts, the values equal those of the command's own
/// argument-parser parse; every other line is left to argument-parser (nil).
final class HandParserTests: XCTestCase {
    /// The values' full text (every field), to compare without making them Equatable.
    func text(_ value: Any) -> String {
        var out = ""
        dump(value, to: &out)
        return out
    }

    /// `words` is read by hand, into the values argument-parser reads from it.
    func assertAccepted(_ words: [String], file: StaticString = #filePath, line: UInt = #line) throws {
        guard let command = HandParser.parse(words) else {
            return XCTFail("not read by hand: \(words)", file: file, line: line)
        }
        let rest = Array(words.dropFirst())
        let (hand, parsed): (Any, Any)
        switch command {
        case .call(let values): (hand, parsed) = (values, try APICLI.Call.parse(rest).values)
        case .check(let values): (hand, parsed) = (values, try APICLI.Check.parse(rest).values)
        case .list(let values): (hand, parsed) = (values, try APICLI.List.parse(rest).values)
        case .validate(let values): (hand, parsed) = (values, try APICLI.Validate.parse(rest).values)
        case .version: return XCTFail("--version is not a command's line: \(words)", file: file, line: line)
        }
        XCTAssertEqual(text(hand), text(parsed), "\(words)", file: file, line: line)
    }

    func assertFallsBack(_ words: [String], file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertNil(HandParser.parse(words), "\(words) must be left to argument-parser", file: file, line: line)
    }

    func testCallShapesAreReadAsArgumentParserReadsThem() throws {
        try assertAccepted(["call", "github.zen"])
        try assertAccepted(["call", "github.zen", "--stub"])
        try assertAccepted(["call", "--stub", "github.zen"])
        try assertAccepted(["call", "github.user", "--stub", "--sample", "missing", "-i", "-v", "-q"])
        try assertAccepted(["call", "github.user", "--include", "--verbose", "--quiet", "--curl", "--dry-run"])
        try assertAccepted(["call", "github.user", "--targets", "api", "--env", "staging"])
        try assertAccepted(["call", "github.user", "-p", "user=octocat", "--param", "page=2", "-p", "user=other"])
        try assertAccepted(["call", "github.user", "-H", "X-Trace: 1", "--header", "Accept:text/plain", "-p", "q="])
        try assertAccepted(["call", "http://127.0.0.1:8080/get", "-H", "X-A: b"])
        try assertAccepted(["call", "github.user", "-p", "x=-1"])
    }

    func testCallValuesTheHandParserSets() throws {
        guard case .call(let values)? = HandParser.parse(["call", "svc.t", "--stub", "-v", "-i", "--targets", "dir",
                                                         "--env", "prod", "-p", "a=1", "-H", "X: y", "-p", "b=2"]) else {
            return XCTFail("not read by hand")
        }
        XCTAssertEqual(values.target, "svc.t")
        XCTAssertTrue(values.stub)
        XCTAssertEqual(values.verbose, 1)
        XCTAssertTrue(values.include)
        XCTAssertEqual(values.targets.targets, "dir")
        XCTAssertEqual(values.environment.environmentName, "prod")
        XCTAssertEqual(values.request.params, ["a=1", "b=2"])
        XCTAssertEqual(values.request.headers, ["X: y"])
        XCTAssertFalse(values.quiet)
        XCTAssertNil(values.sample)
    }

    func testCallLinesItDoesNotKnowAreLeftToArgumentParser() {
        for words in [
            ["call"],                                           // missing target
            ["call", "--stub"],
            ["call", "a.b", "c.d"],                             // extra value
            ["call", "a.b", "--stub", "--stub"],                // repeated
            ["call", "a.b", "-v", "-v"],                        // -vv as two words
            ["call", "a.b", "-v", "--verbose"],
            ["call", "a.b", "--targets", "x", "--targets", "y"],
            ["call", "a.b", "--env", "x", "--env", "y"],
            ["call", "a.b", "--targets=dir"],                   // --opt=value
            ["call", "a.b", "--param=a=1"],
            ["call", "a.b", "-iv"],                             // combined short flags
            ["call", "a.b", "-vv"],
            ["call", "a.b", "-pa=1"],                           // attached short value
            ["call", "--", "a.b"],                              // terminator
            ["call", "a.b", "--stub", "--"],
            ["call", "a.b", "-p"],                              // value missing
            ["call", "a.b", "--targets"],
            ["call", "a.b", "--targets", "-x"],                 // value that reads as an option
            ["call", "a.b", "-H", "--stub"],
            ["call", "a.b", "-p", "noequals"],                  // validate() refuses
            ["call", "a.b", "-p", "=x"],
            ["call", "a.b", "-H", "no colon"],
            ["call", "a.b", "--sample", "x"],                   // --sample without --stub
            ["call", "a.b", "--retries", "2"],                  // options not in the hand set
            ["call", "a.b", "-o", "out.json"],
            ["call", "a.b", "-F", "a=b"],
            ["call", "a.b", "--insecure"],
            ["call", "a.b", "--bogus"],
            ["call", "a.b", "-Z"],
            ["call", "a.b", "-"],
            ["call", ""],                                       // empty word
            ["call", "a.b", "--help"],                          // the root parser's words
            ["call", "a.b", "-h"],
            ["call", "help"],
            ["call", "a.b", "--version"],
            ["call", "--experimental-dump-help"],
            ["call", "a.b", "--env", "help"],
            ["---completion", "call", "--", "positional@0", "0", "0", "be"],
            ["--generate-completion-script", "bash"],
        ] {
            assertFallsBack(words)
        }
    }

    func testTheVersionAloneIsAnsweredByHand() {
        guard case .version? = HandParser.parse(["--version"]) else { return XCTFail("--version not answered by hand") }
    }

    func testCheckListValidateShapes() throws {
        try assertAccepted(["check"])
        try assertAccepted(["check", "--stub"])
        try assertAccepted(["check", "--stub", "github", "httpbin.status*", "--all", "--fail-fast"])
        try assertAccepted(["check", "--targets", "api", "--env", "ci", "github"])
        try assertAccepted(["check", "--targets", "api", "--jobs", "16"])
        try assertAccepted(["check", "--jobs", "+3", "github"])
        try assertAccepted(["list"])
        try assertAccepted(["list", "github", "--json", "httpbin.s*"])
        try assertAccepted(["list", "--targets", "api"])
        try assertAccepted(["validate"])
        try assertAccepted(["validate", "targets/a.yaml", "targets/b.yml"])
        try assertAccepted(["validate", "--targets", "api", "--env", "ci"])
    }

    func testCheckListValidateLinesItDoesNotKnowAreLeftToArgumentParser() {
        for words in [
            ["check", "--stub", "--stub"],
            ["check", "--jobs", "4", "--jobs", "5"],
            ["check", "--jobs", "0"],                           // validate() refuses it
            ["check", "--jobs", "-2"],
            ["check", "--jobs", "four"],
            ["check", "--jobs", "99999999999999999999"],
            ["check", "--jobs"],
            ["check", "--drift", "--drift-mode", "warn"],       // --drift=warn as main rewrites it
            ["check", "--stub", "--targets=api"],
            ["check", "--", "github"],
            ["check", "--help"],
            ["check", "help"],
            ["check", "--stub", "--junit", "r.xml"],
            ["list", "--json", "--json"],
            ["list", "--base-url", "http://127.0.0.1:1"],
            ["list", "-h"],
            ["list", "--targets"],
            ["list", "--", "a"],
            ["validate", "--bogus"],
            ["validate", "--env-file", "x.env"],
            ["validate", "--", "a.yaml"],
            ["validate", "--targets", "a", "--targets", "b"],
            ["show", "a.b"],                                    // other commands
            ["load", "a.b"],
            ["exit-codes"],
            ["--version", "--version"],
            ["call", "--version"],
            ["--version", "call"],
            [],
        ] {
            assertFallsBack(words)
        }
    }
}

/// The hand parser's option tables are the commands' own options: every name it reads is declared
/// by that command for argument-parser, as a flag or an option alike, and repeatable only where the
/// declaration is (argument-parser's own dump of the declarations, `--experimental-dump-help`).
final class HandParserTableTests: XCTestCase {
    struct Tool: Decodable { var command: Command }
    struct Command: Decodable {
        var commandName: String
        var arguments: [Argument]?
        var subcommands: [Command]?
    }
    struct Argument: Decodable {
        struct Name: Decodable { var kind: String; var name: String }
        var kind: String
        var names: [Name]?
        var isRepeating: Bool
        var spelled: [String] { (names ?? []).map { ($0.kind == "short" ? "-" : "--") + $0.name } }
    }

    func testEveryNameTheHandParserReadsIsTheCommandsOwn() throws {
        let result = try CLI.run(["--experimental-dump-help"])
        XCTAssertEqual(result.code, 0, result.stderr)
        let tool = try JSONDecoder().decode(Tool.self, from: result.stdoutData)
        func declared(_ name: String) throws -> [Argument] {
            let command = try XCTUnwrap(tool.command.subcommands?.first { $0.commandName == name }, "no command \(name)")
            return command.arguments ?? []
        }
        func check<Values>(_ command: String, _ table: [HandParser.Word<Values>]) throws {
            let arguments = try declared(command)
            XCTAssertFalse(table.isEmpty)
            for word in table {
                let argument = arguments.first { !Set($0.spelled).isDisjoint(with: word.names) }
                guard let argument else { XCTFail("\(command): \(word.names) is not an option of the command"); continue }
                XCTAssertEqual(Set(argument.spelled), Set(word.names), "\(command): the names of \(word.names)")
                XCTAssertEqual(argument.kind, word.takesValue ? "option" : "flag", "\(command): \(word.names)")
                if word.repeatable { XCTAssertTrue(argument.isRepeating, "\(command): \(word.names) repeats only by hand") }
            }
        }
        try check("call", HandParser.callWords)
        try check("check", HandParser.checkWords)
        try check("list", HandParser.listWords)
        try check("validate", HandParser.validateWords)
    }
}
