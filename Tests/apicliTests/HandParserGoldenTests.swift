import Foundation
import XCTest

/// The hot commands' common lines are read by hand (Sources/apicli/HandParser.swift), the others
/// by argument-parser; every help
/// text, usage line, error message, exit code and completion script must stay what the full parser
/// printed. The golden files in Fixtures/golden-cli were captured from main's binary before the fast
/// path existed (6a1d626): `APICLI_GOLDEN_RECORD=1` rewrites them from the binary under test (or from
/// `APICLI_GOLDEN_BINARY`), for a deliberate change of a help text only.
final class HandParserGoldenTests: XCTestCase {
    static let goldens = CLI.root.appendingPathComponent("Tests/apicliTests/Fixtures/golden-cli")

    static let targets = """
        baseURL: http://127.0.0.1:9
        validate: success
        targets:
          hello:
            path: /hello
            sample: { json: { hello: world } }
          other:
            path: /other/{id}
            params: { id: "7" }
            sample: { status: 404, json: { error: missing } }
        """

    /// name → arguments. Help and usage of each hot command, its errors (parse and validate), the
    /// built-in words in odd places, the completion scripts and a completion request, and the
    /// commands' ordinary output.
    static let cases: [(String, [String])] = [
        ("root-help", ["--help"]),
        ("root-version", ["--version"]),
        ("root-none", []),
        ("help-call", ["help", "call"]),
        ("call-help", ["call", "--help"]),
        ("call-h", ["call", "-h"]),
        ("call-help-after-target", ["call", "bench.hello", "--stub", "--help"]),
        ("call-help-word", ["call", "help"]),
        ("call-vh", ["call", "bench.hello", "-vh"]),
        ("call-single-dash-help", ["call", "-help"]),
        ("call-version", ["call", "bench.hello", "--version"]),
        ("call-dump-help", ["call", "--experimental-dump-help"]),
        ("call-missing-target", ["call"]),
        ("call-missing-target-stub", ["call", "--stub"]),
        ("call-unknown-option", ["call", "bench.hello", "--bogus"]),
        ("call-unknown-short", ["call", "bench.hello", "-Z"]),
        ("call-extra-value", ["call", "bench.hello", "bench.other"]),
        ("call-bad-retries", ["call", "bench.hello", "--retries", "abc"]),
        ("call-negative-retries", ["call", "bench.hello", "--retries", "-3"]),
        ("call-missing-value", ["call", "bench.hello", "--stub", "--sample"]),
        ("call-sample-without-stub", ["call", "bench.hello", "--sample", "x"]),
        ("call-download-and-output", ["call", "bench.hello", "--download", "-o", "x.bin"]),
        ("call-stub", ["call", "bench.hello", "--stub"]),
        ("call-stub-include", ["call", "bench.other", "--stub", "-i"]),
        ("call-stub-unknown-target", ["call", "bench.nope", "--stub"]),
        ("call-dry-run", ["call", "bench.other", "--dry-run", "--curl", "-p", "id=9"]),
        ("call-terminator", ["call", "--stub", "--", "bench.hello"]),
        ("check-help", ["check", "--help"]),
        ("check-unknown-option", ["check", "--bogus"]),
        ("check-bad-shard", ["check", "--shard", "x"]),
        ("check-bad-concurrency", ["check", "--stub", "--concurrency", "many"]),
        ("check-stub", ["check", "--stub"]),
        ("check-drift-equals", ["check", "--stub", "--drift=nonsense"]),
        ("validate-help", ["validate", "--help"]),
        ("validate-unknown-option", ["validate", "--bogus"]),
        ("validate", ["validate"]),
        ("validate-missing-file", ["validate", "nope.yaml"]),
        ("list-help", ["list", "-h"]),
        ("list-unknown-option", ["list", "--json", "--bogus"]),
        ("list", ["list"]),
        ("list-json", ["list", "--json", "bench"]),
        ("completion-bash", ["--generate-completion-script", "bash"]),
        ("completion-zsh", ["--generate-completion-script", "zsh"]),
        ("completion-fish", ["--generate-completion-script", "fish"]),
        ("completion-request-target", ["---completion", "call", "--", "positional@0", "0", "0", "be"]),
        // Read by the hand parser (HandParser.swift): each shape it takes ...
        ("hand-call-stub-verbose", ["call", "bench.hello", "--stub", "-v"]),
        ("hand-call-stub-options", ["call", "--targets", "targets", "bench.other", "--stub", "--include", "-p", "id=3",
                                    "-H", "X-Trace: 1", "--header", "Accept: text/plain", "--param", "id=4", "--verbose"]),
        ("hand-call-stub-sample-quiet", ["call", "bench.other", "--stub", "--sample", "nope", "-q"]),
        ("hand-call-dry-run-header", ["call", "bench.other", "--dry-run", "-H", "X-Trace: 1", "-p", "id=5", "-i"]),
        ("hand-call-dry-run-curl-env", ["call", "bench.hello", "--curl", "--dry-run", "--env", "nope"]),
        ("hand-call-stub-no-targets", ["call", "bench.hello", "--stub", "--targets", "elsewhere"]),
        ("hand-call-live-refused", ["call", "bench.hello", "-i"]),
        ("hand-check-stub-pattern", ["check", "--stub", "bench.h*"]),
        ("hand-check-stub-all-fail-fast", ["check", "--all", "--stub", "--fail-fast", "--targets", "targets", "bench"]),
        ("hand-check-live-refused", ["check", "bench.hello"]),
        ("hand-check-no-match", ["check", "--stub", "nothing.here"]),
        ("hand-list-pattern", ["list", "bench.o*"]),
        ("hand-list-targets-json", ["list", "--targets", "targets", "--json"]),
        ("hand-list-no-folder", ["list", "--targets", "elsewhere"]),
        ("hand-validate-file", ["validate", "targets/bench.yaml"]),
        ("hand-validate-targets-env", ["validate", "--targets", "targets", "--env", "nope"]),
        // ... and shapes it leaves to argument-parser.
        ("hand-call-repeated-flag", ["call", "bench.hello", "--stub", "--stub"]),
        ("hand-call-repeated-option", ["call", "bench.hello", "--stub", "--targets", "targets", "--targets", "targets"]),
        ("hand-call-vv", ["call", "bench.hello", "--stub", "-v", "-v"]),
        ("hand-call-equals-value", ["call", "bench.hello", "--stub", "--targets=targets"]),
        ("hand-call-combined-short", ["call", "bench.other", "--stub", "-iv"]),
        ("hand-call-attached-value", ["call", "bench.other", "--dry-run", "-pid=8"]),
        ("hand-call-terminator-end", ["call", "bench.hello", "--stub", "--"]),
        ("hand-call-value-option", ["call", "bench.hello", "--stub", "--targets", "-i"]),
        ("hand-call-missing-param", ["call", "bench.hello", "--stub", "-p"]),
        ("hand-call-bad-param", ["call", "bench.hello", "--stub", "-p", "noequals"]),
        ("hand-call-bad-header", ["call", "bench.hello", "--stub", "-H", "no colon"]),
        ("hand-call-empty-target", ["call", "", "--stub"]),
        ("hand-call-retries", ["call", "bench.hello", "--stub", "--retries", "1"]),
        ("hand-check-repeated", ["check", "--stub", "--stub"]),
        ("hand-check-terminator", ["check", "--stub", "--", "bench.hello"]),
        ("hand-list-repeated", ["list", "--json", "--json"]),
        ("hand-list-missing-value", ["list", "--targets"]),
        ("hand-validate-terminator", ["validate", "--", "targets/bench.yaml"]),
        ("hand-validate-equals", ["validate", "--targets=targets"]),
    ]

    func testHotCommandsPrintWhatTheFullParserPrinted() throws {
        let dir = try CLI.folder(["targets/bench.yaml": Self.targets])
        defer { try? FileManager.default.removeItem(at: dir) }
        let record = ProcessInfo.processInfo.environment["APICLI_GOLDEN_RECORD"] == "1"
        if record { try FileManager.default.createDirectory(at: Self.goldens, withIntermediateDirectories: true) }
        // Recording from another binary (main's, before a parser change): APICLI_GOLDEN_BINARY=path.
        let binary = record ? ProcessInfo.processInfo.environment["APICLI_GOLDEN_BINARY"].map { URL(fileURLWithPath: $0) } : nil
        for (name, args) in Self.cases {
            let r = try CLI.run(args, cwd: dir, timeout: 60, executable: binary)
            let text = "$ apicli \(args.joined(separator: " "))\nexit \(r.code)\n--- stdout\n\(r.stdout)--- stderr\n\(r.stderr)"
                .replacingOccurrences(of: dir.path, with: "<dir>")
                // the default User-Agent names the version, which a release changes
                .replacingOccurrences(of: CLI.defaultUserAgent, with: "apicli/<version>")
                // check's durations vary with the machine's load
                .replacingOccurrences(of: #"\s+\d+ ms"#, with: "  <t> ms", options: .regularExpression)
                // -v's response time
                .replacingOccurrences(of: #"\(\d+ ms\)"#, with: "(<t> ms)", options: .regularExpression)
            let url = Self.goldens.appendingPathComponent(name + ".txt")
            if record {
                try Data(text.utf8).write(to: url)
                continue
            }
            let golden = try String(contentsOf: url, encoding: .utf8)
            if text != golden {
                XCTFail("apicli \(args.joined(separator: " ")) printed something else than \(url.path):\n\(text)")
            }
        }
    }

    /// A golden file per case, no stale one left when a case is renamed.
    func testEveryGoldenFileHasItsCase() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.goldens.path).filter { $0.hasSuffix(".txt") }
        XCTAssertEqual(Set(files), Set(Self.cases.map { $0.0 + ".txt" }))
    }
}
