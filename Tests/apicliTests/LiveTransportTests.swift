import Foundation
import TestServers
import XCTest

/// What the one live transport (async-http-client) does that URLSession used to, and what it
/// must not do — against the local httpbin, the fault server and its proxy mode, on loopback:
/// redirects (with a limit, a switch, and no credential to another origin), cookies per run,
/// proxies from the environment, bounded decompression and bodies, and no libcurl in the binary.
final class LiveTransportTests: XCTestCase {
    var dir: URL!
    var httpbin = ""
    var port = ""

    override func setUpWithError() throws {
        httpbin = try CLI.httpbin()
        port = String(httpbin.split(separator: ":").last ?? "")
        dir = try CLI.folder([
            "targets/hb.yaml": """
                baseURL: ${HB_URL}
                auth: { header: X-Api-Key, value: "${API_KEY}" }
                headers: { Authorization: "Bearer ${API_TOKEN}", Cookie: "session=${SESSION_SECRET}" }
                targets:
                  toOtherHost:                       # 127.0.0.1 -> localhost: another origin
                    path: /redirect-to
                    task: { query: { url: "http://localhost:\(port)/headers" } }
                  toSameHost:
                    path: /redirect-to
                    task: { query: { url: "/headers" } }
                  tenHops: { path: /redirect/10 }
                  elevenHops: { path: /redirect/11 }
                  notFollowed: { path: /redirect/1, followRedirects: false, validate: successAndRedirect }
                  setCookie: { path: /cookies/set, task: { query: { flavour: oat } } }
                  bytes: { path: /bytes/5000 }
                """,
        ])
    }

    override func tearDownWithError() throws {
        if let dir { try? FileManager.default.removeItem(at: dir) }
    }

    var env: [String: String] {
        ["HB_URL": httpbin, "API_KEY": "key-7f1c", "API_TOKEN": "tok-9b2e", "SESSION_SECRET": "sess-4d5a"]
    }

    func headers(_ r: CLI.Result, file: StaticString = #filePath, line: UInt = #line) throws -> [String: String] {
        XCTAssertEqual(r.code, 0, r.stderr, file: file, line: line)
        let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: r.stdoutData) as? [String: Any], r.stdout)
        return try XCTUnwrap(json["headers"] as? [String: String], r.stdout, file: file, line: line)
    }

    func testNoCredentialFollowsARedirectToAnotherOrigin() throws {
        // WHEN a redirect leads from 127.0.0.1 to localhost
        let other = try headers(try CLI.run(["call", "hb.toOtherHost"], env: env, cwd: dir))
        // THEN Authorization, Cookie and the configured auth header stay behind
        XCTAssertEqual(other["Host"], "localhost:\(port)")
        XCTAssertNil(other["Authorization"], "\(other)")
        XCTAssertNil(other["X-Api-Key"], "\(other)")
        XCTAssertNil(other["Cookie"], "\(other)")
        // AND a redirect on the same origin keeps them
        let same = try headers(try CLI.run(["call", "hb.toSameHost"], env: env, cwd: dir))
        XCTAssertEqual(same["Authorization"], "Bearer tok-9b2e")
        XCTAssertEqual(same["X-Api-Key"], "key-7f1c")
        XCTAssertEqual(same["Cookie"], "session=sess-4d5a")
    }

    func testRedirectsAreFollowedUpToTenAndCanBeTurnedOff() throws {
        XCTAssertEqual(try CLI.run(["call", "hb.tenHops"], env: env, cwd: dir).code, 0)
        let eleven = try CLI.run(["call", "hb.elevenHops"], env: env, cwd: dir)
        XCTAssertEqual(eleven.code, 3)
        XCTAssertEqual(eleven.stderr, "apicli: hb.elevenHops: network error: too many redirects from 127.0.0.1:\(port)\n")
        // followRedirects: false returns the 302 itself (validate: successAndRedirect accepts it)
        let kept = try CLI.run(["call", "hb.notFollowed", "-i"], env: env, cwd: dir)
        XCTAssertEqual(kept.code, 0, kept.stderr)
        XCTAssertTrue(kept.stdout.hasPrefix("HTTP/1.1 302 Found\n"), kept.stdout)
        XCTAssertTrue(kept.stdout.contains("Location: /get\n"), kept.stdout)
        // AND --no-follow does the same for any target
        let flag = try CLI.run(["call", "hb.tenHops", "--no-follow", "-i"], env: env, cwd: dir)
        XCTAssertEqual(flag.code, 0, flag.stderr)
        XCTAssertTrue(flag.stdout.hasPrefix("HTTP/1.1 302 Found\n"), flag.stdout)
    }

    func testCookiesSetOnTheWayAreSentOnTheNextHop() throws {
        // httpbin's /cookies/set answers 302 with Set-Cookie, then /cookies echoes what arrived
        let r = try CLI.run(["call", "hb.setCookie"], env: env, cwd: dir)
        XCTAssertEqual(r.code, 0, r.stderr)
        let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: r.stdoutData) as? [String: Any])
        XCTAssertEqual((json["cookies"] as? [String: String])?["flavour"], "oat", r.stdout)
    }

    func testCheckBoundsTheBodyItHolds() throws {
        let r = try CLI.run(["check", "hb.bytes", "--max-body", "1000"], env: env, cwd: dir)
        XCTAssertEqual(r.code, 3, r.stdout)
        XCTAssertTrue(r.stdout.contains("network error: the response from 127.0.0.1:\(port) is larger than 1000 bytes (--max-body)"),
                      r.stdout)
        XCTAssertEqual(try CLI.run(["check", "hb.bytes", "--max-body", "5000"], env: env, cwd: dir).code, 0)
    }

    func testADecompressionBombFailsClearly() throws {
        let faults = try TestServer("faultserver.py", ["--lifetime", "60"])
        defer { faults.stop() }
        let folder = try CLI.folder(["targets/f.yaml": "baseURL: \(faults.url)\ntargets:\n  bomb: { path: /gzip-bomb }\n"])
        defer { try? FileManager.default.removeItem(at: folder) }
        for command in [["call", "f.bomb"], ["check", "f.bomb"]] {
            let r = try CLI.run(command, cwd: folder)
            XCTAssertEqual(r.code, 3, command.joined(separator: " ") + r.stdout + r.stderr)
            XCTAssertTrue((r.stdout + r.stderr).contains(
                "network error: the response from 127.0.0.1:\(faults.port) inflates beyond 100 times its compressed size"),
                r.stdout + r.stderr)
        }
    }

    func testTheProxyFromTheEnvironmentIsUsedUnlessNoProxyNamesTheHost() throws {
        let proxy = try TestServer("faultserver.py", ["--lifetime", "60"])
        defer { proxy.stop() }
        func log() throws -> [[String: String]] {
            let r = try Curl.run(["\(proxy.url)/proxy-log"])
            return try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(r.body.utf8)) as? [[String: String]], r.raw)
        }
        // GIVEN http_proxy with credentials, and no no_proxy
        var viaProxy = env
        viaProxy["http_proxy"] = "http://user:p%40ss@127.0.0.1:\(proxy.port)"
        viaProxy["NO_PROXY"] = ""
        viaProxy["no_proxy"] = ""
        let r = try CLI.run(["call", "hb.bytes"], env: viaProxy, cwd: dir)
        XCTAssertEqual(r.code, 0, r.stderr)
        XCTAssertEqual(r.stdoutData.count, 5000)
        // THEN the request went through the proxy, authenticated (user:p@ss)
        XCTAssertEqual(try log(), [["target": "127.0.0.1:\(port)", "authorization": "Basic dXNlcjpwQHNz"]])
        // AND NO_PROXY naming the host goes direct (upper case works too)
        viaProxy["no_proxy"] = nil
        viaProxy["NO_PROXY"] = "localhost,127.0.0.1"
        let direct = try CLI.run(["call", "hb.bytes"], env: viaProxy, cwd: dir)
        XCTAssertEqual(direct.code, 0, direct.stderr)
        XCTAssertEqual(try log().count, 1, "no second tunnel")
    }

    /// The default Linux binary links no libcurl and no FoundationNetworking (the URLSession
    /// transport is behind the URLSessionTransport trait).
    func testTheBinaryLinksNoLibcurl() throws {
        #if os(Linux) && !URLSessionTransport
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["readelf", "-d", CLI.binary.path]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let text = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        XCTAssertTrue(text.contains("NEEDED"), text)
        XCTAssertFalse(text.contains("libcurl"), text)
        XCTAssertFalse(text.contains("FoundationNetworking"), text)
        #else
        throw XCTSkip("URLSession builds link FoundationNetworking by design")
        #endif
    }
}
