import Foundation
import TestServers
import XCTest

/// Issue 36's corpus: real-world curl commands (curlconverter's test fixtures and the examples of
/// curl's own option documentation, Fixtures/curl-corpus with SOURCE.txt). Each is sent by the real
/// curl and, after `apicli import curl`, by `apicli call`, both to Tests/Servers/echo-server.py
/// (the fixtures' `localhost:28139` rewritten to it): method, path, query, the headers that matter
/// and the body bytes must be equal. LEFT-OUT.txt says why a command is not sent; the commands of
/// REFUSED.txt are refused by curl and by the import alike.
final class ImportCurlCorpusTests: CurlEchoTestCase {
    static let corpus = CLI.root.appendingPathComponent("Tests/apicliTests/Fixtures/curl-corpus")
    static let folders = ["curlconverter", "curl-docs"]
    /// Set by each client on its own (curl's `Expect: 100-continue` for uploads too).
    static let ownHeaders: Set<String> = ["host", "user-agent", "accept-encoding", "connection", "content-length",
                                          "transfer-encoding", "expect"]
    struct Seen: Equatable, CustomStringConvertible {
        var method: String
        var path: String
        var query: String?
        var headers: [String]
        var body: Data

        var description: String {
            "\(method) \(path) ?\(query ?? "(none)") headers \(headers) body \(String(decoding: body.prefix(400), as: UTF8.self).debugDescription)"
        }
    }

    /// `name.sh | reason` lines of a list beside the fixtures.
    static func list(_ name: String) throws -> [String: String] {
        let text = try String(contentsOf: corpus.appendingPathComponent(name), encoding: .utf8)
        var out: [String: String] = [:]
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            let parts = line.split(separator: "|", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard parts.count == 2, !parts[1].isEmpty else { continue }
            out[parts[0]] = parts[1]
        }
        return out
    }

    static func commands() throws -> [String] {
        try folders.flatMap { dir in
            try FileManager.default.contentsOfDirectory(atPath: corpus.appendingPathComponent(dir).path)
                .filter { $0.hasSuffix(".sh") }.sorted().map { "\(dir)/\($0)" }
        }
    }

    /// A folder holding the files the commands name.
    private func workFolder() throws -> URL {
        let dir = try folder()
        let files = Self.corpus.appendingPathComponent("files")
        for name in try FileManager.default.contentsOfDirectory(atPath: files.path) {
            try FileManager.default.copyItem(at: files.appendingPathComponent(name), to: dir.appendingPathComponent(name))
        }
        return dir
    }

    private func command(_ key: String) throws -> String {
        let text = try String(contentsOf: Self.corpus.appendingPathComponent(key), encoding: .utf8)
        return text.replacing(/(https?:\/\/)?localhost:28139/, with: server.url).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The shell variables a command names, each given the value `v-NAME` (for bash and for apicli).
    static func shellVariables(_ command: String) -> [String: String] {
        var env: [String: String] = [:]
        for m in command.matches(of: /\$\{?([A-Za-z_][A-Za-z0-9_]*)/) { env[String(m.1)] = "v-" + m.1 }
        return env
    }

    /// The echo in `output`: a response head with an `X-Echo` header (HEAD), or the first JSON
    /// object of the body (several URLs: one object each).
    static func seen(_ output: String) throws -> Seen {
        var text = output
        if text.hasPrefix("HTTP/") {
            let lines = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
            if let echo = lines.first(where: { $0.lowercased().hasPrefix("x-echo:") }) {
                let b64 = echo.dropFirst(7).trimmingCharacters(in: .whitespaces)
                text = String(decoding: Data(base64Encoded: b64) ?? Data(), as: UTF8.self)
            } else if let r = text.range(of: "\r\n\r\n") ?? text.range(of: "\n\n") {
                text = String(text[r.upperBound...])
            }
        }
        if let r = text.range(of: #"}{"method""#) { text = String(text[..<text.index(after: r.lowerBound)]) }
        guard let o = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any],
              let method = o["method"] as? String, let path = o["path"] as? String, let headers = o["headers"] as? [[String]],
              var body = (o["body"] as? String).flatMap({ Data(base64Encoded: $0) }) else {
            throw CocoaError(.coderReadCorrupt, userInfo: [NSDebugDescriptionErrorKey: "not an echo: \(output.prefix(300))"])
        }
        var kept: [String] = []
        for h in headers where !ownHeaders.contains(h[0].lowercased()) && !(h[0].lowercased() == "accept" && h[1] == "*/*") {
            var value = h[1]
            if h[0].lowercased() == "content-type", let b = value.firstMatch(of: /boundary=(.+)/) {
                // each client draws its own multipart boundary
                body = Data(String(decoding: body, as: UTF8.self).replacing(String(b.1), with: "BOUNDARY").utf8)
                value = value.replacing(String(b.1), with: "BOUNDARY")
            }
            kept.append("\(h[0].lowercased()): \(value)")
        }
        // %0a and %0A are the same escape (RFC 3986 6.2.2.1); curl 7 writes --url-query's in lower case
        let query = (o["query"] as? String).map { $0.replacing(/%[0-9a-fA-F]{2}/) { $0.output.uppercased() } }
        return Seen(method: method, path: path, query: query, headers: kept.sorted(), body: body)
    }

    /// The values of the variables the import wrote in place of credentials, from the request curl sent.
    static func credentials(_ warnings: String, curl: Seen) -> [String: String] {
        var headers: [String: String] = [:]
        for h in curl.headers {
            let parts = h.split(separator: ":", maxSplits: 1).map(String.init)
            if headers[parts[0]] == nil { headers[parts[0]] = parts.count > 1 ? String(parts[1].dropFirst()) : "" }
        }
        var env: [String: String] = [:]
        for m in warnings.matches(of: /(the [^\n]*?) is written as \$\{(\w+)\}/) {
            let what = String(m.1), name = String(m.2)
            if let v = what.firstMatch(of: /^the shell variable \$(\w+)/) {
                env[name] = "v-" + v.1
            } else if let h = what.firstMatch(of: /^the (\S+) header of/) {
                env[name] = headers[h.1.lowercased()] ?? ""
            } else if what.contains("basic auth"), let a = headers["authorization"], a.hasPrefix("Basic "),
                      let pair = Data(base64Encoded: String(a.dropFirst(6))).map({ String(decoding: $0, as: UTF8.self) }) {
                env[name] = pair.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false).dropFirst().first.map(String.init) ?? ""
            } else if what.contains("bearer"), let a = headers["authorization"] {
                env[name] = String(a.dropFirst(7))
            } else if let q = what.firstMatch(of: /^the query parameter (\S+) of \S+(?: \(value (\d+)\))?$/) {
                // a key given twice: `(value 2)` is its second value's variable
                let pairs = (curl.query ?? "").split(separator: "&").map { $0.split(separator: "=", maxSplits: 1).map(String.init) }
                let values = pairs.filter { $0[0] == q.1 && $0.count == 2 }.map { $0[1] }
                let n = q.2.flatMap { Int($0) } ?? 1
                env[name] = values.count >= n ? values[n - 1] : ""
            } else {
                env[name] = "x"  // not sent to this server (a digest password: it asks for no credentials)
            }
        }
        return env
    }

    func testEveryKeptCommandImportsToTheRequestCurlSends() throws {
        let leftOut = try Self.list("LEFT-OUT.txt"), refused = try Self.list("REFUSED.txt")
        let all = try Self.commands()
        for key in Array(leftOut.keys) + Array(refused.keys) { XCTAssertTrue(all.contains(key), "\(key) is listed but not in the corpus") }
        var kept = 0
        for key in all where leftOut[key] == nil && refused[key] == nil {
            kept += 1
            let cmd = try command(key)
            let dir = try workFolder()
            let shellEnv = Self.shellVariables(cmd).merging(["NO_PROXY": "127.0.0.1", "no_proxy": "127.0.0.1"]) { a, _ in a }
            let bash = try shell(cmd + " -s", cwd: dir, env: shellEnv, program: "/bin/bash")
            guard bash.code == 0 else { XCTFail("\(key): curl exits \(bash.code): \(bash.stderr.suffix(300))"); continue }
            let theirs = try Self.seen(bash.stdout)
            let imported = try CLI.run(["import", "curl", "--service", "rt", "--name", "t", cmd], cwd: dir)
            guard imported.code == 0 else { XCTFail("\(key): import exits \(imported.code): \(imported.stderr)"); continue }
            try imported.stdoutData.write(to: dir.appendingPathComponent("rt.yaml"))
            let env = Self.credentials(imported.stderr, curl: theirs).merging(shellEnv) { a, _ in a }
            let call = try CLI.run(["call", "rt.t", "-i", "--targets", dir.path], env: env, cwd: dir)
            guard call.code == 0 else { XCTFail("\(key): call exits \(call.code): \(call.stderr)\n\(imported.stdout)"); continue }
            let ours = try Self.seen(call.stdout)
            XCTAssertEqual(ours, theirs, "\(key)\n\(cmd)\nimported as:\n\(imported.stdout)")
        }
        XCTAssertGreaterThanOrEqual(kept, 100, "the corpus keeps at least a hundred commands")
    }

    /// What curl refuses (`-d` with `-F`, `-T` with `-d`), the import refuses too.
    func testCommandsCurlRefusesAreRefused() throws {
        for (key, why) in try Self.list("REFUSED.txt") {
            let cmd = try command(key)
            let dir = try workFolder()
            let bash = try shell(cmd + " -s", cwd: dir, env: ["NO_PROXY": "127.0.0.1"], program: "/bin/bash")
            XCTAssertEqual(bash.code, 2, "\(key) (\(why)): curl \(bash.stderr)")
            let imported = try CLI.run(["import", "curl", cmd], cwd: dir)
            XCTAssertEqual(imported.code, 2, "\(key) (\(why)): \(imported.stderr)")
            XCTAssertTrue(imported.stderr.contains("curl refuses it"), imported.stderr)
        }
    }
}
