import Foundation
import NIOCore
import NIOPosix
import TestServers
import XCTest
@testable import APISupport
@testable import APIDiagnostics
@testable import APITargets
@testable import APIEndpoint
@testable import APITransport
@testable import APILive
@testable import APISend

/// Run settings are values (issue 33): two workspaces with different connection options, cookie
/// jars or proxies send side by side in one process, through the one send path (`Caller`),
/// against real loopback servers, and each exchange goes by its own workspace's settings.
final class RunSettingsTests: XCTestCase {
    private let rounds = 12

    /// A workspace and its caller with these settings.
    private func caller(_ settings: RunSettings) -> Caller {
        Caller(workspace: Workspace(variables: [:], settings: settings))
    }

    /// The service `demo` at `base`.
    private func service(_ base: String) throws -> Service {
        try decodeService("""
            baseURL: \(base)
            targets:
              anything: { path: /anything }
              cookies: { path: /cookies }
              setA: { path: /cookies/set, task: { query: { who: a } } }
              setB: { path: /cookies/set, task: { query: { who: b } } }
            """)
    }

    /// `name` of `service` sent once by `caller`; its body, a JSON object.
    private static func send(_ caller: Caller, _ name: String, in service: Service, onLoop: Bool) async throws -> [String: Any] {
        let target = try XCTUnwrap(service.targets.first { $0.name == name })
        // One of the two on an event loop (the keep-alive engine), the other not (async-http-client):
        // both engines read the settings they were made with.
        let loop: (any EventLoop)? = onLoop ? MultiThreadedEventLoopGroup.singleton.next() : nil
        let sent = try await EventLoopExecutor.$current.withValue(loop) {
            let call = try await caller.prepare(target, in: service)
            return await caller.send(call)
        }
        let response = try sent.response()
        XCTAssertEqual(response.status, 200, String(decoding: response.body, as: UTF8.self))
        return try XCTUnwrap(try JSONSerialization.jsonObject(with: response.body) as? [String: Any])
    }

    /// The same URL (the echo server's) from two workspaces at once: the one with
    /// `--connect-to` reaches httpbin (its JSON names the URL; `Host:` stays the URL's), the one
    /// without reaches the echo server (its JSON lists the headers as sent).
    func testConnectToBelongsToItsWorkspace() async throws {
        let httpbin = try XCTUnwrap(URL(string: try localHTTPBin()))
        let echo = try TestServer("echo-server.py", ["--lifetime", "60"])
        defer { echo.stop() }
        let routed = caller(RunSettings(connection: ConnectionOptions(connectTo: [
            ConnectionOptions.ConnectTo(host: "127.0.0.1", port: echo.port, toHost: "127.0.0.1", toPort: httpbin.port)])))
        let direct = caller(RunSettings())
        let service = try service(echo.url)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for round in 0..<self.rounds {
                group.addTask {
                    let json = try await Self.send(routed, "anything", in: service, onLoop: round % 2 == 0)
                    XCTAssertEqual(json["url"] as? String, echo.url + "/anything", "routed, round \(round): httpbin answers")
                    XCTAssertEqual((json["headers"] as? [String: String])?["Host"], "127.0.0.1:\(echo.port)")
                }
                group.addTask {
                    let json = try await Self.send(direct, "anything", in: service, onLoop: round % 2 == 1)
                    XCTAssertEqual(json["target"] as? String, "/anything", "direct, round \(round): the echo server answers")
                    XCTAssertNil(json["url"], "direct, round \(round)")
                }
            }
            try await group.waitForAll()
        }
    }

    /// Two workspaces, two jars: what httpbin sets for one (`who=a`, on the redirect of
    /// /cookies/set) is sent back by that one only, while the other sends and keeps its own.
    func testEachWorkspaceKeepsItsOwnCookieJar() async throws {
        let service = try service(try localHTTPBin())
        let (a, b) = (caller(RunSettings()), caller(RunSettings()))
        XCTAssertFalse(a.workspace.settings.cookies === b.workspace.settings.cookies)
        async let setA = Self.send(a, "setA", in: service, onLoop: true)
        async let setB = Self.send(b, "setB", in: service, onLoop: false)
        _ = try await (setA, setB)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for round in 0..<self.rounds {
                for (who, caller) in [("a", a), ("b", b)] {
                    group.addTask {
                        let json = try await Self.send(caller, "cookies", in: service, onLoop: round % 2 == 0)
                        XCTAssertEqual(json["cookies"] as? [String: String], ["who": who], "\(who), round \(round)")
                    }
                }
            }
            try await group.waitForAll()
        }
        // A copy of a workspace (what `offline()`, `connections(atLeast:)` and each caller hold) shares its jar.
        let copy = Caller(workspace: a.workspace.connections(atLeast: 4))
        let json = try await Self.send(copy, "cookies", in: service, onLoop: false)
        XCTAssertEqual(json["cookies"] as? [String: String], ["who": "a"])
    }

    /// Two workspaces with different proxies (faultserver's CONNECT proxy, with two logins) at
    /// once: every tunnel carries the login of the workspace whose request opened it, and both
    /// logins are seen; a third workspace with no proxy goes direct (no tunnel of its own).
    func testProxiesBelongToTheirWorkspace() async throws {
        let httpbin = try XCTUnwrap(URL(string: try localHTTPBin()))
        let proxy = try TestServer("faultserver.py", ["--lifetime", "60"])
        defer { proxy.stop() }
        func via(_ login: String) -> Caller {
            caller(RunSettings(proxies: ProxySettings(http: .init(host: "127.0.0.1", port: proxy.port, credentials: login))))
        }
        let (a, b, direct) = (via("a:1"), via("b:2"), caller(RunSettings()))
        let service = try service(httpbin.absoluteString)
        func log() async throws -> [[String: Any]] {
            let r = try await LiveTransport(only: .nio).send(PreparedRequest(url: URL(string: proxy.url + "/proxy-log")!, method: "GET",
                                                                             headers: [], body: nil, timeout: 10))
            return try XCTUnwrap(try JSONSerialization.jsonObject(with: r.body) as? [[String: Any]])
        }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for round in 0..<self.rounds {
                for caller in [a, b, direct] {
                    group.addTask { _ = try await Self.send(caller, "anything", in: service, onLoop: round % 2 == 0) }
                }
            }
            try await group.waitForAll()
        }
        let tunnels = try await log()
        let target = "127.0.0.1:\(try XCTUnwrap(httpbin.port))"
        XCTAssertEqual(Set(tunnels.compactMap { $0["target"] as? String }), [target])
        let basic = { (login: String) in "Basic " + Data(login.utf8).base64EncodedString() }
        XCTAssertEqual(Set(tunnels.compactMap { $0["authorization"] as? String }), [basic("a:1"), basic("b:2")], "\(tunnels)")
        XCTAssertEqual(tunnels.count, tunnels.compactMap { $0["authorization"] as? String }.count, "no tunnel without a login: \(tunnels)")
    }
}
