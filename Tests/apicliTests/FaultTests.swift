import Foundation
import TestServers
import XCTest

/// `apicli call` and `apicli check` against a server that misbehaves on purpose
/// (Tests/Servers/faultserver.py, loopback only): each fault ends in the documented exit code, one clear
/// line, within the timeout, and no output file — through the live transport (async-http-client on
/// Linux), plain and with `--insecure` (which adds its warning line). The URLSession transport's
/// words are the same `NetworkFailure` descriptions (TransportErrorTests, under its trait).
final class FaultTests: XCTestCase {
    nonisolated(unsafe) static var server: TestServer?
    static var port: Int { server?.port ?? 0 }
    var dir: URL!

    override class func setUp() {
        server = try? TestServer("faultserver.py", ["--lifetime", "300"])
    }

    override class func tearDown() {
        server?.stop()
    }

    override func setUpWithError() throws {
        XCTAssertNotEqual(Self.port, 0, "the fault server did not start")
        dir = try CLI.folder(["fault.yaml": """
            baseURL: http://127.0.0.1:\(Self.port)
            timeout: 2
            validate: success
            targets:
              ok: { path: /ok }
              resetHeaders: { path: /reset-headers }
              shortBody: { path: /short-body }
              stallHeaders: { path: /stall-headers }
              stallBody: { path: /stall-body }
              badStatus: { path: /bad-status }
              redirectLoop: { path: /redirect-loop }
              hugeHeader: { path: /huge-header }
              badGzip: { path: /bad-gzip }
            """])
    }

    override func tearDownWithError() throws {
        if let dir { try? FileManager.default.removeItem(at: dir) }
    }

    /// Plain, and with `--insecure` (on a plain-http URL it changes nothing but a warning line; on
    /// Apple platforms and with the URLSessionTransport trait it also picks async-http-client).
    static let transports: [(name: String, args: [String])] = [("default", []), ("--insecure", ["--insecure"])]

    static func warning(_ args: [String], _ target: String) -> String {
        args.isEmpty ? "" : "apicli: warning: TLS certificate verification is off for \(target)\n"
    }

    /// The faults: target, exit code of `call`, the line after `apicli: fault.NAME: ` (one wording:
    /// `NetworkFailure` words every transport's failure), and what async-http-client adds in
    /// parentheses because it counts the body bytes (URLSession cannot).
    static let faults: [(name: String, code: Int32, line: String, detail: String?)] = [
        ("resetHeaders", 3, "network error: the connection to HOST was lost", nil),
        ("shortBody", 3, "network error: HOST closed the connection before the body was complete",
         "received 10 of 1000 bytes"),
        ("stallHeaders", 4, "timed out after 2 s", nil),
        ("stallBody", 4, "timed out after 2 s", nil),
        ("badStatus", 3, "network error: HOST sent a malformed status line", nil),
        ("redirectLoop", 3, "network error: too many redirects from HOST", nil),
        ("hugeHeader", 3, "network error: the response head from HOST is too large", nil),
        ("badGzip", 3, "network error: HOST sent a compressed body that does not decode", nil),
    ]

    static func line(_ fault: (name: String, code: Int32, line: String, detail: String?)) -> String {
        let text = fault.line.replacingOccurrences(of: "HOST", with: "127.0.0.1:\(port)")
        guard let detail = fault.detail else { return text }
        return "\(text) (\(detail))"
    }

    func testEveryFaultThroughBothTransports() throws {
        for transport in Self.transports {
            for fault in Self.faults {
                let target = "fault.\(fault.name)"
                let r = try CLI.run(["call", target, "--targets", dir.path] + transport.args, timeout: 20)
                let context = "\(target) via \(transport.name)"
                XCTAssertEqual(r.code, fault.code, "\(context): \(r.stderr)")
                XCTAssertEqual(r.stderr, Self.warning(transport.args, target)
                               + "apicli: \(target): \(Self.line(fault))\n", context)
                XCTAssertLessThan(r.seconds, 10, context)
            }
        }
    }

    /// `-o` streams the body to disk, always through async-http-client (see LiveTransport): the
    /// same words, and no file left behind, neither the output nor a temporary one.
    func testEveryFaultWithAnOutputFileLeavesNoFile() throws {
        for fault in Self.faults {
            let output = dir.appendingPathComponent("out-\(fault.name)")
            let target = "fault.\(fault.name)"
            let r = try CLI.run(["call", target, "--targets", dir.path, "-o", output.path], timeout: 20)
            XCTAssertEqual(r.code, fault.code, "\(target): \(r.stderr)")
            XCTAssertEqual(r.stderr, "apicli: \(target): \(Self.line(fault))\n", target)
            XCTAssertLessThan(r.seconds, 10, target)
            XCTAssertFalse(FileManager.default.fileExists(atPath: output.path), "\(target) left \(output.path)")
            let leftovers = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0 != "fault.yaml" }
            XCTAssertEqual(leftovers, [], "\(target): temporary files left behind")
        }
    }

    func testControlCaseWritesTheFile() throws {
        for transport in Self.transports {
            let output = dir.appendingPathComponent("ok.txt")
            let r = try CLI.run(["call", "fault.ok", "--targets", dir.path, "-o", output.path] + transport.args)
            XCTAssertEqual(r.code, 0, r.stderr)
            XCTAssertEqual(try String(contentsOf: output, encoding: .utf8), "ok", transport.name)
            try FileManager.default.removeItem(at: output)
        }
    }

    func testRefused() throws {
        for transport in Self.transports {
            let r = try CLI.run(["call", "fault.ok", "--targets", dir.path, "--base-url", "http://127.0.0.1:9"] + transport.args)
            XCTAssertEqual(r.code, 3, transport.name)
            XCTAssertEqual(r.stderr, Self.warning(transport.args, "fault.ok")
                           + "apicli: fault.ok: network error: cannot connect to 127.0.0.1:9 (connection refused)\n")
        }
    }

    /// `check` over every fault at once: one line per target with the same words as `call`, exit 1
    /// (network failures and timeouts mixed), complete JUnit and JSON reports, within the timeout.
    func testCheckReportsEveryFaultAndWritesCompleteReports() throws {
        for transport in Self.transports {
            let junit = dir.appendingPathComponent("check.xml"), json = dir.appendingPathComponent("check.json")
            let r = try CLI.run(["check", "fault", "--targets", dir.path, "--junit", junit.path, "--json", json.path]
                                + transport.args, timeout: 30)
            let context = transport.name
            XCTAssertEqual(r.code, 1, "\(context): \(r.stderr)")
            XCTAssertLessThan(r.seconds, 10, context)
            let lines = CheckSupport.normalized(r.stdout).split(separator: "\n").map(String.init)
            XCTAssertTrue(lines.contains("PASS fault.ok 200 T ms"), "\(context): \(r.stdout)")
            for fault in Self.faults {
                let message = Self.line(fault)  // the same words as call's
                XCTAssertTrue(lines.contains("FAIL fault.\(fault.name) --- T ms \(message)"),
                              "\(context): no line for \(fault.name) in\n\(r.stdout)")
            }
            XCTAssertEqual(lines.last, "1 passed, 8 failed", context)

            let (code, lint) = try CheckSupport.xmllint(junit)
            XCTAssertEqual(code, 0, "\(context): \(lint)")
            let results = CheckSupport.results(try CheckSupport.report(json))
            XCTAssertEqual(results.count, 9, context)
            let kinds = Dictionary(uniqueKeysWithValues: results.map { ($0["target"] as? String ?? "", $0["kind"] as? String ?? "-") })
            for fault in Self.faults {
                XCTAssertEqual(kinds[fault.name], fault.code == 4 ? "timeout" : "network", "\(context): \(fault.name)")
            }
            try FileManager.default.removeItem(at: junit)
            try FileManager.default.removeItem(at: json)
        }
    }

    /// Exit 3 when every failure is a network failure, 4 when every one is a timeout.
    func testCheckExitCodeNamesTheKindWhenAllFailuresShareIt() throws {
        let network = Self.faults.filter { $0.code == 3 }.map { "fault.\($0.name)" }
        let timeouts = Self.faults.filter { $0.code == 4 }.map { "fault.\($0.name)" }
        for transport in Self.transports {
            let n = try CLI.run(["check"] + network + ["fault.ok", "--targets", dir.path] + transport.args, timeout: 30)
            XCTAssertEqual(n.code, 3, "\(transport.name): \(n.stdout)\(n.stderr)")
            XCTAssertTrue(n.stdout.hasSuffix("1 passed, \(network.count) failed\n"), n.stdout)
            let t = try CLI.run(["check"] + timeouts + ["--targets", dir.path] + transport.args, timeout: 30)
            XCTAssertEqual(t.code, 4, "\(transport.name): \(t.stdout)\(t.stderr)")
            XCTAssertLessThan(t.seconds, 10, "the stalls run concurrently and end at the 2 s timeout")
        }
    }
}
