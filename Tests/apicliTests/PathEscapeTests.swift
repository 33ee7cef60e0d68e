import Foundation
import TestServers
import XCTest

/// A path whose text left a '%' that starts no escape made the whole URL invalid; Foundation then
/// encoded every '%' again, so `show` printed (and `call` sent) a literal `${…}` as `%2524%257B…`.
final class PathEscapeTests: FolderTestCase {
    private let file = """
        baseURL: http://127.0.0.1:9
        targets:
          literal:
            path: /x/100%/{p}/%41
            params: { p: "$${a}" }
          braces:
            path: "/x/$${{}a}/%zz"
          query:
            path: /q
            task: { query: "a=100%&b=%2F" }
          queryValues:
            path: /q
            params: { v: "a&b c", r: "x/y&z" }
            task: { query: "z=1&flag&v={v}&r={+r}&k[]=1" }

        """

    func testShowEncodesEachByteOnce() throws {
        let dir = try folder(["s.yaml": file])
        for (target, url) in [("literal", "http://127.0.0.1:9/x/100%25/%24%7Ba%7D/%41"),
                              ("braces", "http://127.0.0.1:9/x/$%7B%7B%7Da%7D/%25zz"),
                              ("query", "http://127.0.0.1:9/q?a=100%25&b=%2F"),
                              // a query written as text: as written, a {value} encoded as one query value
                              ("queryValues", "http://127.0.0.1:9/q?z=1&flag&v=a%26b%20c&r=x/y&z&k%5B%5D=1")] {
            let r = try CLI.run(["show", "s.\(target)", "--targets", dir.path])
            XCTAssertEqual(r.code, 0, r.stderr)
            XCTAssertTrue(r.stdout.contains("GET \(url)\n"), "\(target): \(r.stdout)")
            XCTAssertFalse(r.stdout.contains("%25%"), r.stdout)
        }
    }

    /// What goes on the wire, as the echo server saw it.
    func testSentAsShown() throws {
        let server = try TestServer("echo-server.py")
        defer { server.stop() }
        let dir = try folder(["s.yaml": file.replacing("http://127.0.0.1:9", with: server.url)])
        let r = try CLI.run(["call", "s.literal", "--targets", dir.path], env: ["NO_PROXY": "127.0.0.1"])
        XCTAssertEqual(r.code, 0, r.stderr)
        let echo = try JSONSerialization.jsonObject(with: r.stdoutData) as? [String: Any]
        XCTAssertEqual(echo?["path"] as? String, "/x/100%25/%24%7Ba%7D/%41")
    }

    /// Issue 34 item 7: a value captured from a response (or given with -p) that would walk out of the
    /// `download:` path's folder is refused, exit 2, and nothing is written.
    func testADownloadPathKeepsAPlaceholdersValueInItsFolder() throws {
        let server = try TestServer("echo-server.py")
        defer { server.stop() }
        let dir = try folder(["targets/s.yaml": """
            baseURL: \(server.url)
            targets:
              name: { path: /name, task: { query: "../outside/victim.txt" }, capture: { name: { json: "$.query" } } }
              save: { path: /file, needs: [name], task: { download: "downloads/{name}" } }
              plain: { path: /file, task: { download: "downloads/{name}" } }
            """, "work/outside/victim.txt": "precious\n"])
        let work = dir.appendingPathComponent("work")
        let targets = dir.appendingPathComponent("targets").path
        for args in [["call", "s.save", "--targets", targets], ["call", "s.plain", "--targets", targets, "-p", "name=../outside/victim.txt"],
                     ["call", "s.plain", "--targets", targets, "-p", "name=.."]] {
            let r = try CLI.run(args, env: ["NO_PROXY": "127.0.0.1"], cwd: work)
            XCTAssertEqual(r.code, 2, args.joined(separator: " ") + ": " + r.stdout + r.stderr)
            XCTAssertTrue(r.stderr.contains("is not a plain file name"), r.stderr)
            XCTAssertEqual(try String(contentsOf: work.appendingPathComponent("outside/victim.txt"), encoding: .utf8), "precious\n")
            XCTAssertFalse(FileManager.default.fileExists(atPath: work.appendingPathComponent("downloads").path))
        }
        // a plain name is saved in the folder
        let ok = try CLI.run(["call", "s.plain", "--targets", targets, "-p", "name=a.json"], env: ["NO_PROXY": "127.0.0.1"], cwd: work)
        XCTAssertEqual(ok.code, 0, ok.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: work.appendingPathComponent("downloads/a.json").path))
    }
}
