import Foundation
import TestServers
import XCTest

/// `task: { websocket: }` against a real WebSocket server (Tests/Servers/ws-echo-server.py on PyPI's
/// `websockets`, from `make venv`): call prints each message as it comes, check judges the
/// conversation, the handshake carries headers, auth and subprotocols, record writes a
/// `messages:` sample that `apicli mock` serves back.
final class WebSocketLiveTests: XCTestCase {
    nonisolated(unsafe) static var server: TestServer?
    nonisolated(unsafe) static var startError: String?
    var dir: URL!

    static var python: String { CLI.root.appendingPathComponent(".venv/bin/python").path }

    /// The venv's Python with `websockets`, else a skip (a failure under `make test`).
    static func requireVenv() throws {
        guard FileManager.default.isExecutableFile(atPath: python) else {
            if ProcessInfo.processInfo.environment["APICLI_REQUIRE_LIVE"] == "1" { XCTFail("no .venv: run make venv (websockets)") }
            throw XCTSkip("no .venv with websockets: run make venv")
        }
    }

    override class func setUp() {
        guard FileManager.default.isExecutableFile(atPath: python) else { return }
        do { server = try TestServer("ws-echo-server.py", ["--lifetime", "600"], python: python) } catch { startError = "\(error)" }
    }

    override class func tearDown() { server?.stop() }

    override func setUpWithError() throws {
        try Self.requireVenv()
        let server = try XCTUnwrap(Self.server, Self.startError ?? "the WebSocket server did not start")
        dir = try CLI.folder(["targets/chat.yaml": """
            baseURL: ws://127.0.0.1:\(server.port)
            targets:
              echo:
                path: /echo
                task:
                  websocket:
                    send: [ "hello {who}", { json: { n: 1 } }, { binary: { file: ../blob.bin } } ]
                    expect: [ { text: hello world }, { json: { "$.n": 1 } }, { binary: true } ]
                    close: { after: 3 }
                params: { who: world }
              wrong:
                path: /echo
                task:
                  websocket:
                    send: [ hello ]
                    expect: [ { text: "~bye" } ]
                    close: { wait: 2s }
              info:
                path: /info
                headers: { X-Test: "yes" }
                auth: { bearer: "${CHAT_TOKEN}" }
                task: { websocket: { subprotocols: [ nope, superchat ], close: { after: 1 } } }
              plain:
                path: /info
                task: { websocket: { deflate: false, close: { after: 1 } } }
              push:
                path: /push
                task: { websocket: { close: { after: 3 } } }
              slow:
                path: /push
                task: { websocket: { close: { wait: 30s } } }
              idle:
                path: /push
                stream: { idle: 100ms }
                task: { websocket: { close: { wait: 30s } } }
              refuse:
                path: /refuse
                task: { websocket: { send: [ hi ] } }
              coded:
                path: /echo
                task: { websocket: { send: [ hi ], close: { after: 1, code: 4001, reason: done } } }
              log: { path: /log }
              digest:
                path: /digest
                auth: { digest: { username: ann, password: "${WS_DIGEST_PASSWORD}" } }
                task: { websocket: { send: [ "behind digest" ], expect: [ { text: behind digest } ], close: { after: 1 } } }
              early:
                path: /push
                task: { websocket: { expect: [ { text: n2 } ], close: { wait: 20s } } }
            """, "blob.bin": "\u{1}\u{2}\u{3}"])
    }

    override func tearDownWithError() throws {
        if let dir { try? FileManager.default.removeItem(at: dir) }
    }

    func testCallSendsTheMessagesAndPrintsEachAnswer() throws {
        let r = try CLI.run(["call", "chat.echo"], cwd: dir)
        XCTAssertEqual(r.code, 0, r.stderr)
        XCTAssertEqual(r.stdout, "hello world\n{\"n\":1}\nAQID\n")
        // -o saves the messages, one a line, once the conversation is over.
        let saved = try CLI.run(["call", "chat.echo", "-o", "out.txt"], cwd: dir)
        XCTAssertEqual(saved.code, 0, saved.stderr)
        XCTAssertEqual(saved.stdout, "")
        XCTAssertEqual(try String(contentsOf: dir.appendingPathComponent("out.txt"), encoding: .utf8), "hello world\n{\"n\":1}\nAQID\n")
        let tooMuch = try CLI.run(["check", "chat.echo", "--max-body", "5"], cwd: dir)
        XCTAssertEqual(tooMuch.code, 3, tooMuch.stdout + tooMuch.stderr)
        XCTAssertTrue(tooMuch.stdout.contains("larger than"), tooMuch.stdout)
        let json = try CLI.run(["call", "chat.echo", "--format", "json"], cwd: dir)
        XCTAssertEqual(json.code, 0, json.stderr)
        let lines = json.stdout.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.count, 3, json.stdout)
        XCTAssertTrue(lines[0].hasPrefix("{\"type\":\"text\",\"data\":\"hello world\",\"at\":"), lines[0])
        XCTAssertTrue(lines[2].hasPrefix("{\"type\":\"binary\",\"data\":\"AQID\",\"at\":"), lines[2])
    }

    /// The messages are printed as they come: the server's gaps (300 ms) show in their times.
    func testMessagesArePrintedAsTheyCome() throws {
        let r = try CLI.run(["call", "chat.push", "--format", "json"], cwd: dir)
        XCTAssertEqual(r.code, 0, r.stderr)
        let times = r.stdout.split(separator: "\n").compactMap { line -> Double? in
            let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            return object?["at"] as? Double
        }
        XCTAssertEqual(times.count, 3, r.stdout)
        if times.count == 3 { XCTAssertGreaterThanOrEqual(times[2] - times[0], 0.55, r.stdout) }
    }

    func testCheckJudgesTheConversation() throws {
        let pass = try CLI.run(["check", "chat.echo", "chat.push"], cwd: dir)
        XCTAssertEqual(pass.code, 0, pass.stdout + pass.stderr)
        XCTAssertTrue(pass.stdout.contains("2 passed"), pass.stdout)
        // The conversation ends as soon as its expect: is met, not after the 20 s wait.
        let start = Date()
        let early = try CLI.run(["call", "chat.early"], cwd: dir)
        XCTAssertEqual(early.code, 0, early.stderr)
        XCTAssertEqual(early.stdout, "n1\nn2\n")
        XCTAssertLessThan(Date().timeIntervalSince(start), 15)
        let fail = try CLI.run(["check", "chat.wrong"], cwd: dir)
        XCTAssertEqual(fail.code, 1, fail.stdout + fail.stderr)
        XCTAssertTrue(fail.stdout.contains("expected message 1 (containing \"bye\") was not received; got 1 message, the last: \"hello\""),
                      fail.stdout)
    }

    /// Headers, auth and the subprotocols go with the opening handshake; permessage-deflate is
    /// offered (and agreed by `websockets`) unless `deflate: false`.
    func testTheHandshakeCarriesHeadersAuthSubprotocolsAndDeflate() throws {
        let r = try CLI.run(["call", "chat.info"], env: ["CHAT_TOKEN": "s3cret-token-1"], cwd: dir)
        XCTAssertEqual(r.code, 0, r.stderr)
        let info = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any], r.stdout)
        XCTAssertEqual(info["authorization"] as? String, "Bearer s3cret-token-1")
        XCTAssertEqual(info["x-test"] as? String, "yes")
        XCTAssertEqual(info["protocol"] as? String, "superchat")
        XCTAssertEqual(info["extensions"] as? [String], ["permessage-deflate"])
        let plain = try CLI.run(["call", "chat.plain"], cwd: dir)
        XCTAssertEqual(plain.code, 0, plain.stderr)
        let none = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(plain.stdout.utf8)) as? [String: Any], plain.stdout)
        XCTAssertEqual(none["extensions"] as? [String], [])
        XCTAssertTrue(none["protocol"] is NSNull, plain.stdout)
    }

    /// The handshake carries the run's cookies for its host, as every HTTP hop of the engine does
    /// (`RunSettings.hop`): here from `--cookie FILE`, a Netscape file as curl writes it.
    func testTheHandshakeSendsTheJarsCookies() throws {
        let jar = dir.appendingPathComponent("jar.txt")
        try Data("127.0.0.1\tFALSE\t/\tFALSE\t0\tsid\tws-7\n".utf8).write(to: jar)
        let r = try CLI.run(["call", "chat.plain", "--cookie", jar.path], cwd: dir)
        XCTAssertEqual(r.code, 0, r.stderr)
        let info = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any], r.stdout)
        XCTAssertEqual(info["cookie"] as? String, "sid=ws-7")
    }

    /// `auth: { digest: }` on a WebSocket: the server's 401 challenge to the handshake is answered
    /// once, as an ordinary request's is, and the conversation goes on; a wrong password is a
    /// clear error naming the credentials, never the password.
    func testADigestChallengeToTheHandshakeIsAnswered() throws {
        let r = try CLI.run(["call", "chat.digest", "-v"], env: ["WS_DIGEST_PASSWORD": "digest-pass-3"], cwd: dir)
        XCTAssertEqual(r.code, 0, r.stderr)
        XCTAssertEqual(r.stdout, "behind digest\n")
        XCTAssertEqual(try CLI.run(["check", "chat.digest"], env: ["WS_DIGEST_PASSWORD": "digest-pass-3"], cwd: dir).code, 0)
        let wrong = try CLI.run(["call", "chat.digest"], env: ["WS_DIGEST_PASSWORD": "not-it-42"], cwd: dir)
        XCTAssertEqual(wrong.code, 3, wrong.stderr)
        XCTAssertTrue(wrong.stderr.contains("refused the WebSocket handshake's Digest credentials"), wrong.stderr)
        XCTAssertFalse(wrong.stderr.contains("not-it-42"), wrong.stderr)
    }

    func testRefusedUpgradeIdleAndCloseCode() throws {
        let refused = try CLI.run(["call", "chat.refuse"], cwd: dir)
        XCTAssertEqual(refused.code, 3, refused.stderr)
        XCTAssertTrue(refused.stderr.contains("did not accept the WebSocket upgrade"), refused.stderr)
        let idle = try CLI.run(["call", "chat.idle"], cwd: dir)
        XCTAssertEqual(idle.code, 4, idle.stderr)
        XCTAssertTrue(idle.stderr.contains("idle for 100 ms"), idle.stderr)
        let coded = try CLI.run(["call", "chat.coded"], cwd: dir)
        XCTAssertEqual(coded.code, 0, coded.stderr)
        // The server logs the close codes it was sent (when the close handshake ends).
        let http = "http://127.0.0.1:\(Self.server!.port)"
        let deadline = Date().addingTimeInterval(15)
        var seen = ""
        while Date() < deadline {
            seen = try CLI.run(["call", "chat.log", "--base-url", http], cwd: dir).stdout
            if seen.contains("4001") { break }
            Thread.sleep(forTimeInterval: 0.2)
        }
        XCTAssertTrue(seen.contains("4001"), seen)
    }

    /// http_proxy (with a login) carries the handshake through a CONNECT tunnel; no_proxy goes direct.
    func testTheProxyFromTheEnvironmentCarriesTheConversation() throws {
        let proxy = try TestServer("faultserver.py", ["--lifetime", "120"])
        defer { proxy.stop() }
        func log() throws -> [[String: String]] {
            let r = try Curl.run(["\(proxy.url)/proxy-log"])
            return try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(r.body.utf8)) as? [[String: String]], r.raw)
        }
        let env = ["http_proxy": "http://user:p%40ss@127.0.0.1:\(proxy.port)", "no_proxy": "", "NO_PROXY": ""]
        let r = try CLI.run(["call", "chat.echo"], env: env, cwd: dir)
        XCTAssertEqual(r.code, 0, r.stderr)
        XCTAssertEqual(r.stdout, "hello world\n{\"n\":1}\nAQID\n")
        XCTAssertEqual(try log(), [["target": "127.0.0.1:\(Self.server!.port)", "authorization": "Basic dXNlcjpwQHNz"]])
        let direct = try CLI.run(["call", "chat.echo"], env: env.merging(["no_proxy": "127.0.0.1"]) { $1 }, cwd: dir)
        XCTAssertEqual(direct.code, 0, direct.stderr)
        XCTAssertEqual(try log().count, 1, "no second tunnel")
    }

    /// Ctrl-C while a conversation waits: exit 130, the messages so far printed.
    func testInterruptEndsTheConversationWith130() throws {
        let process = Process()
        process.executableURL = CLI.binary
        process.arguments = ["call", "chat.slow"]
        process.currentDirectoryURL = dir
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        var got = Data()
        while !String(decoding: got, as: UTF8.self).contains("n3\n") {
            guard let byte = try out.fileHandleForReading.read(upToCount: 1), !byte.isEmpty else { break }
            got += byte
        }
        kill(process.processIdentifier, SIGINT)
        process.waitUntilExit()
        XCTAssertEqual(String(decoding: got, as: UTF8.self), "n1\nn2\nn3\n")
        XCTAssertEqual(process.terminationStatus, 130)
    }

    /// record writes the conversation as a `messages:` sample with its pacing; `call --stub` and a
    /// live call against `apicli mock` (a real WebSocket) give the same messages back.
    func testRecordThenStubAndMockGiveTheConversationBack() throws {
        let live = try CLI.run(["call", "chat.push"], cwd: dir)
        XCTAssertEqual(live.code, 0, live.stderr)
        let rec = try CLI.run(["record", "chat.push"], cwd: dir)
        XCTAssertEqual(rec.code, 0, rec.stderr)
        let file = try String(contentsOf: dir.appendingPathComponent("targets/chat.yaml"), encoding: .utf8)
        XCTAssertTrue(file.contains("messages:\n        - { text: \"n1\", delay: "), file)
        XCTAssertEqual(try CLI.run(["validate"], cwd: dir).code, 0)
        let stub = try CLI.run(["call", "chat.push", "--stub"], cwd: dir)
        XCTAssertEqual(stub.stdout, live.stdout, stub.stderr)
        XCTAssertEqual(try CLI.run(["check", "chat.push", "--stub"], cwd: dir).code, 0)
        let mock = try MockProcess([], cwd: dir)
        defer { _ = mock.stop() }
        let start = Date()
        let served = try CLI.run(["call", "chat.push", "--base-url", mock.url], cwd: dir)
        XCTAssertEqual(served.code, 0, served.stderr)
        XCTAssertEqual(served.stdout, live.stdout)
        XCTAssertGreaterThanOrEqual(Date().timeIntervalSince(start), 0.55, "the mock keeps the recorded pacing")
    }
}
