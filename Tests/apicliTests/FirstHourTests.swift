import Foundation
import XCTest
import TestServers
#if canImport(Glibc)
import Glibc
#endif

/// Issue 37: what a newcomer meets in the first hour, each on the binary's output and exit code:
/// `init` and `schema`, the schema beside the files apicli writes, and the rough edges (URL-like
/// words, -F implying POST, --timeout units, unreadable files, a taken port, a mistyped command,
/// an empty check, help within 80 columns).
final class FirstHourTests: XCTestCase {
    static let modeline = "# yaml-language-server: $schema=.apicli-targets.schema.json\n"

    func testInitWritesAFolderThatLoadsAndRefusesToOverwrite() throws {
        let dir = try CLI.folder([:])
        defer { try? FileManager.default.removeItem(at: dir) }
        // WHEN init runs in an empty folder
        let r = try CLI.run(["init"], cwd: dir)
        XCTAssertEqual(r.code, 0, r.stderr)
        let targets = dir.appendingPathComponent("targets")
        let example = try String(contentsOf: targets.appendingPathComponent("example.yaml"), encoding: .utf8)
        let project = try String(contentsOf: targets.appendingPathComponent("apicli.yaml"), encoding: .utf8)
        // THEN each file names its schema, and the schemas are what `apicli schema` prints
        XCTAssertTrue(example.hasPrefix(Self.modeline), example)
        XCTAssertTrue(project.hasPrefix("# yaml-language-server: $schema=.apicli-project.schema.json\n"), project)
        for kind in ["targets", "project"] {
            let printed = try CLI.run(["schema", kind])
            XCTAssertEqual(printed.code, 0)
            XCTAssertEqual(try String(contentsOf: targets.appendingPathComponent(".apicli-\(kind).schema.json"), encoding: .utf8), printed.stdout)
        }
        // AND the folder validates, lists and answers offline
        let validate = try CLI.run(["validate"], cwd: dir)
        XCTAssertEqual(validate.code, 0, validate.stderr)
        XCTAssertEqual(validate.stdout, "ok: 1 file, 2 targets, 2 samples\n")
        XCTAssertEqual(try CLI.run(["call", "example.echo", "--stub"], cwd: dir).stdout, #"{"args":{"q":"hello"}}"#)
        XCTAssertEqual(try CLI.run(["check", "--stub"], cwd: dir).code, 0)
        // WHEN init runs again: exit 5, nothing written
        try Data("edited\n".utf8).write(to: targets.appendingPathComponent("apicli.yaml"))
        let again = try CLI.run(["init"], cwd: dir)
        XCTAssertEqual(again.code, 5, again.stderr)
        XCTAssertTrue(again.stderr.contains("targets/example.yaml already exists"), again.stderr)
        XCTAssertEqual(try String(contentsOf: targets.appendingPathComponent("apicli.yaml"), encoding: .utf8), "edited\n")
        // AND init DIR starts another folder
        XCTAssertEqual(try CLI.run(["init", "other"], cwd: dir).code, 0)
        XCTAssertTrue(FileManager.default.fileExists(atPath: dir.appendingPathComponent("other/example.yaml").path))
    }

    func testSchemaPrintsTheRepositorysFile() throws {
        let file = try String(contentsOf: CLI.root.appendingPathComponent("schema/apicli-targets.schema.json"), encoding: .utf8)
        let r = try CLI.run(["schema"])
        XCTAssertEqual(r.code, 0)
        XCTAssertEqual(r.stdout, file)
        let project = try CLI.run(["schema", "project"])
        XCTAssertTrue(project.stdout.contains(##""$ref": "#/$defs/project""##), project.stdout)
        XCTAssertEqual(try CLI.run(["schema", "nope"]).code, 64)
    }

    func testImportAndSaveWriteTheModelineAndTheSchemaBeside() throws {
        let dir = try CLI.folder([:])
        defer { try? FileManager.default.removeItem(at: dir) }
        try Data("openapi: 3.1.0\ninfo: { title: Items, version: '1' }\nservers: [ { url: 'http://127.0.0.1:9' } ]\npaths:\n  /items:\n    get: { operationId: listItems, responses: { '200': { description: ok } } }\n".utf8)
            .write(to: dir.appendingPathComponent("items.yaml"))
        let imported = try CLI.run(["import", "openapi", "items.yaml"], cwd: dir)
        XCTAssertEqual(imported.code, 0, imported.stderr)
        let files = try FileManager.default.contentsOfDirectory(atPath: dir.appendingPathComponent("targets").path).sorted()
        XCTAssertTrue(files.contains(".apicli-targets.schema.json"), "\(files)")
        let written = try XCTUnwrap(files.first { $0.hasSuffix(".yaml") })
        XCTAssertTrue(try String(contentsOf: dir.appendingPathComponent("targets/" + written), encoding: .utf8).hasPrefix(Self.modeline))
        let saved = try CLI.run(["call", "http://127.0.0.1:9/x", "--save", "fresh.x", "--dry-run"], cwd: dir)
        XCTAssertEqual(saved.code, 0, saved.stderr)
        XCTAssertTrue(try String(contentsOf: dir.appendingPathComponent("targets/fresh.yaml"), encoding: .utf8).hasPrefix(Self.modeline))
    }

    func testURLLikeWordsSayWhatIsWrong() throws {
        let noScheme = try CLI.run(["call", "127.0.0.1:8191/get"])
        XCTAssertEqual(noScheme.code, 64)
        XCTAssertTrue(noScheme.stderr.contains("add http:// (or https://)"), noScheme.stderr)
        XCTAssertFalse(noScheme.stderr.contains("no targets folder"), noScheme.stderr)
        let ftp = try CLI.run(["call", "ftp://files.test/a"])
        XCTAssertEqual(ftp.code, 64)
        XCTAssertTrue(ftp.stderr.contains("only http:// and https://"), ftp.stderr)
    }

    func testFormAndDataImplyPost() throws {
        for flags in [["-F", "note=hi"], ["-d", "a=1"]] {
            let r = try CLI.run(["call", "http://127.0.0.1:9/post", "--dry-run"] + flags)
            XCTAssertEqual(r.code, 0, r.stderr)
            XCTAssertTrue(r.stdout.hasPrefix("POST http://127.0.0.1:9/post"), "\(flags): \(r.stdout)")
        }
        let get = try CLI.run(["call", "http://127.0.0.1:9/put", "-X", "PUT", "-F", "note=hi", "--dry-run"])
        XCTAssertTrue(get.stdout.hasPrefix("PUT "), get.stdout)
    }

    /// An ad-hoc call's target text is apicli's own: its errors name the flag, never a line and
    /// column of a file the user has not seen; `import curl` refuses the same word (no file that
    /// `validate` rejects).
    func testAdHocErrorsNameTheFlagNotAMadeUpPosition() throws {
        let r = try CLI.run(["call", "http://127.0.0.1:9/x", "-X", "A:B", "--dry-run"])
        XCTAssertEqual(r.code, 2, r.stderr)
        XCTAssertTrue(r.stderr.contains("-X 'A:B' is not an HTTP method token"), r.stderr)
        XCTAssertFalse(r.stderr.contains("(command line):"), r.stderr)
        let imported = try CLI.run(["import", "curl", "curl -X 'GET /' http://127.0.0.1:9/x"])
        XCTAssertEqual(imported.code, 2, imported.stdout + imported.stderr)
        XCTAssertTrue(imported.stderr.contains("-X 'GET /' is not an HTTP method token"), imported.stderr)
        XCTAssertEqual(imported.stdout, "")
    }

    /// One rule for `check` and `load`: a sweep leaves out `check: false` and unsafe methods; a
    /// target named whole, or `--all`, is sent by both.
    func testCheckAndLoadFollowOneRuleForUnsafeTargets() throws {
        let server = try TestServer("echo-server.py")
        defer { server.stop() }
        let dir = try CLI.folder(["targets/api.yaml": """
            baseURL: \(server.url)
            targets:
              read: { path: /read }
              create: { method: POST, path: /create }
              hidden: { path: /hidden, check: false }
            """])
        defer { try? FileManager.default.removeItem(at: dir) }
        // a sweep: both leave out create and hidden
        let check = try CLI.run(["check"], cwd: dir)
        XCTAssertEqual(check.code, 0, check.stdout + check.stderr)
        XCTAssertTrue(CheckSupport.normalized(check.stdout).contains("SKIP api.create POST runs only when named, with check: true, or with --all"), check.stdout)
        let load = try CLI.run(["load", "--requests", "3"], cwd: dir)
        XCTAssertEqual(load.code, 0, load.stderr)
        XCTAssertTrue(load.stderr.contains("apicli: left out api.create: POST runs only when named"), load.stderr)
        XCTAssertTrue(load.stderr.contains("apicli: left out api.hidden: check: false"), load.stderr)
        XCTAssertFalse(load.stdout.contains("api.create"), load.stdout)
        // named whole: both send it
        let named = try CLI.run(["check", "api.create", "api.hidden"], cwd: dir)
        let lines = CheckSupport.normalized(named.stdout)
        XCTAssertTrue(lines.contains("PASS api.create") && lines.contains("PASS api.hidden"), named.stdout + named.stderr)
        let loadNamed = try CLI.run(["load", "api.create", "--requests", "2"], cwd: dir)
        XCTAssertEqual(loadNamed.code, 0, loadNamed.stderr)
        XCTAssertTrue(loadNamed.stdout.contains("api.create"), loadNamed.stdout)
        // a glob is a sweep; --all sends everything
        let glob = try CLI.run(["load", "api.c*", "--requests", "1"], cwd: dir)
        XCTAssertEqual(glob.code, 2, glob.stderr)
        XCTAssertTrue(glob.stderr.contains("nothing to load: every selected target is left out"), glob.stderr)
        let all = try CLI.run(["load", "--all", "--requests", "3"], cwd: dir)
        XCTAssertEqual(all.code, 0, all.stderr)
        XCTAssertTrue(all.stdout.contains("api.create") && all.stdout.contains("api.hidden"), all.stdout)
    }

    func testTimeoutTakesUnits() throws {
        for value in ["2s", "800ms", "1m", "1.5"] {
            let r = try CLI.run(["call", "github.zen", "--stub", "--timeout", value])
            XCTAssertEqual(r.code, 0, "\(value): \(r.stderr)")
        }
        XCTAssertEqual(try CLI.run(["call", "github.zen", "--stub", "--timeout", "2h"]).code, 64)
        XCTAssertEqual(try CLI.run(["call", "github.zen", "--stub", "--timeout", "0s"]).code, 64)
    }

    func testValidateSaysWhyAFileCannotBeRead() throws {
        let missing = try CLI.run(["validate", "nosuch.yaml"])
        XCTAssertEqual(missing.code, 2)
        XCTAssertTrue(missing.stderr.contains("nosuch.yaml: error: cannot read target file: No such file or directory"), missing.stderr)
        let folder = try CLI.run(["validate", "targets"])
        XCTAssertEqual(folder.code, 2)
        XCTAssertTrue(folder.stderr.contains("it is a folder") && folder.stderr.contains("--targets targets"), folder.stderr)
    }

    func testMockOnATakenPortSaysSoInWords() throws {
        // GIVEN a port this process listens on
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        try withUnsafeMutablePointer(to: &address) { p in
            try p.withMemoryRebound(to: sockaddr.self, capacity: 1) { s in
                guard bind(fd, s, length) == 0, listen(fd, 1) == 0, getsockname(fd, s, &length) == 0 else { throw XCTSkip("cannot listen") }
            }
        }
        let port = Int(UInt16(bigEndian: address.sin_port))
        // WHEN mock is asked for it
        let r = try CLI.run(["mock", "--port", String(port)], timeout: 20)
        // THEN exit 3, in words, with the way out
        XCTAssertEqual(r.code, 3, r.stderr)
        XCTAssertTrue(r.stderr.contains("cannot listen on 127.0.0.1:\(port): the port is in use"), r.stderr)
        XCTAssertTrue(r.stderr.contains("--port 0"), r.stderr)
        XCTAssertFalse(r.stderr.contains("errno"), r.stderr)
    }

    func testAMistypedCommandGetsTheClosestOne() throws {
        let r = try CLI.run(["cal", "x"])
        XCTAssertEqual(r.code, 64)
        XCTAssertEqual(r.stderr, "apicli: 'cal' is not a command\n  hint: did you mean 'call'? (apicli --help lists them)\n")
    }

    func testACheckThatChecksNothingIsNotGreen() throws {
        let dir = try CLI.folder(["targets/api.yaml": "baseURL: http://127.0.0.1:9\ntargets:\n  create: { method: POST, path: /x }\n"])
        defer { try? FileManager.default.removeItem(at: dir) }
        let r = try CLI.run(["check"], cwd: dir)
        XCTAssertEqual(r.code, 2, r.stdout + r.stderr)
        XCTAssertTrue(r.stderr.contains("no check ran: every selected target was skipped"), r.stderr)
        XCTAssertEqual(try CLI.run(["check", "--allow-empty"], cwd: dir).code, 0)
    }

    func testHelpFitsEightyColumns() throws {
        let commands = ["call", "list", "show", "check", "load", "validate", "report merge", "import openapi", "import curl",
                        "import har", "import postman", "import insomnia", "import http", "import bruno", "auth clear", "mock", "record", "init", "schema"]
        let asked = [["exit-codes"], ["help", "exit-codes"], ["--help"]] + commands.map({ ["help"] + $0.split(separator: " ").map(String.init) })
        for words in asked {
            let r = try CLI.run(words)
            XCTAssertEqual(r.code, 0, "\(words)")
            for line in r.stdout.split(separator: "\n") {
                XCTAssertLessThanOrEqual(line.count, 80, "\(words): \(line)")
            }
        }
    }
}
