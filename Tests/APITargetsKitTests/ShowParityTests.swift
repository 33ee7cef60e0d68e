import Foundation
import XCTest
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import APITargetsKit
import APITargetsURLSession
import APISupport
import APITargets
import APISend

/// The URLRequest the library builds for a target is what `apicli show` prints for the same file:
/// method, URL, headers and body, for every target of the repository's own target files (targets/
/// and every test fixture folder that loads), with `--show-secrets`. Where `show` still prints
/// `••••` (a value only a secret command would give, which `show` never runs), the library's value
/// must have the same text around it.
final class ShowParityTests: XCTestCase {
    /// targets/ and every folder under the test fixtures that loads as a catalogue.
    static func folders() -> [URL] {
        var out = [Library.targets]
        for fixtures in ["Tests/APITargetsKitTests/Fixtures", "Tests/APICoreTests/Fixtures", "Tests/apicliTests/Fixtures"] {
            let base = Library.root.appendingPathComponent(fixtures)
            let walker = FileManager.default.enumerator(at: base, includingPropertiesForKeys: [.isDirectoryKey])
            var dirs: [URL] = []
            while let url = walker?.nextObject() as? URL {
                if (try? url.resourceValues(forKeys: [.isDirectoryKey]).isDirectory) == true { dirs.append(url) }
            }
            out += dirs.sorted { $0.path < $1.path }
        }
        return out.filter { dir in
            let names = (try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []
            return names.contains { $0.hasSuffix(".yaml") || $0.hasSuffix(".yml") } && (try? TargetCatalog(folder: dir)) != nil
        }
    }

    func testEveryTargetsRequestIsWhatShowPrints() throws {
        var compared = 0, refusedByBoth = 0, unsupported: [String] = []
        for folder in Self.folders() {
            let catalog = try TargetCatalog(folder: folder)
            for name in catalog.targetNames {
                let shown = try Library.apicli(["show", name, "--targets", folder.path, "--show-secrets"])
                // The values the needs would capture show as {name}: give the library the same.
                let (service, target) = try catalog.find(name)
                let captured = FlowRunner.unsent(target, in: service, find: catalog.catalog.lookup)
                let request: URLRequest
                do {
                    request = try catalog.urlRequest(name, parameters: captured)
                } catch TargetsError.unsupported {
                    XCTAssertEqual(shown.code, 0, "\(name): \(shown.stderr)")
                    unsupported.append(name)
                    continue
                } catch {
                    XCTAssertNotEqual(shown.code, 0, "\(folder.lastPathComponent)/\(name): the library refuses (\(error)), show prints:\n\(shown.stdout)")
                    refusedByBoth += 1
                    continue
                }
                XCTAssertEqual(shown.code, 0, "\(name): show failed: \(shown.stderr)")
                guard shown.code == 0 else { continue }
                compare(request, Self.parse(shown.stdout), name: "\(folder.lastPathComponent)/\(name)")
                compared += 1
            }
        }
        XCTAssertGreaterThanOrEqual(compared, 39, "too few targets compared")
        XCTAssertEqual(unsupported, ["shop.digest"])
        XCTAssertGreaterThanOrEqual(refusedByBoth, 1)
        print("ShowParityTests: \(compared) targets compared, \(refusedByBoth) refused by both, unsupported: \(unsupported)")
    }

    struct Shown {
        var method = ""
        var url = ""
        var headers: [(String, String)] = []
        var body: String?
        var timeout = ""
    }

    /// `show`'s request block: after the title (and doc) and a blank line, `METHOD url`, the
    /// headers, then a blank line and the body when there is one; `timeout` follows.
    static func parse(_ text: String) -> Shown {
        let lines = text.components(separatedBy: "\n")
        guard let start = lines.firstIndex(of: ""), let end = lines.lastIndex(where: { $0.hasPrefix("timeout   ") }) else { return Shown() }
        var block = Array(lines[(start + 1)..<(end - 1)])
        var shown = Shown()
        shown.timeout = String(lines[end].dropFirst("timeout   ".count))
        let first = block.removeFirst().split(separator: " ", maxSplits: 1).map(String.init)
        (shown.method, shown.url) = (first[0], first.count > 1 ? first[1] : "")
        while let line = block.first, !line.isEmpty {
            block.removeFirst()
            let parts = line.split(separator: ":", maxSplits: 1).map(String.init)
            shown.headers.append((parts[0], parts.count > 1 ? String(parts[1].dropFirst()) : ""))
        }
        if !block.isEmpty { shown.body = block.dropFirst().joined(separator: "\n") }
        return shown
    }

    /// `actual` has the text of `shown` around each `••••` (what show hides).
    func same(_ actual: String, _ shown: String) -> Bool {
        let pieces = shown.components(separatedBy: "••••")
        guard pieces.count > 1 else { return actual == shown }
        guard actual.hasPrefix(pieces[0]), actual.hasSuffix(pieces.last!) else { return false }
        return true
    }

    func compare(_ request: URLRequest, _ shown: Shown, name: String) {
        XCTAssertEqual(request.httpMethod, shown.method, name)
        XCTAssertEqual(Text.duration(request.timeoutInterval), shown.timeout, name)
        XCTAssertTrue(same(request.url?.absoluteString ?? "", shown.url), "\(name): \(request.url?.absoluteString ?? "") vs \(shown.url)")
        var expected: [String: String] = [:]
        for (n, v) in shown.headers { expected[n.lowercased()] = expected[n.lowercased()].map { $0 + ", " + v } ?? v }
        let actual = Dictionary((request.allHTTPHeaderFields ?? [:]).map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { a, _ in a })
        XCTAssertEqual(Set(actual.keys), Set(expected.keys), name)
        for (key, value) in expected {
            let mine = actual[key] ?? ""
            if value.contains("boundary=") {
                XCTAssertEqual(mine.components(separatedBy: "boundary=").first, value.components(separatedBy: "boundary=").first, name)
            } else {
                XCTAssertTrue(same(mine, value), "\(name): header \(key) is \(mine), show says \(value)")
            }
        }
        let body = request.httpBody ?? Data()
        guard let text = shown.body else { return XCTAssertEqual(body, Data(), "\(name): show prints no body") }
        if let size = Self.number(text, #"^\[body from .*, (\d+) bytes\]$"#) ?? Self.number(text, #"^\[(\d+) bytes of binary data\]$"#) {
            XCTAssertEqual(body.count, size, name)
        } else if let parts = Self.number(text.components(separatedBy: "\n")[0], #"^\[multipart/form-data, (\d+) parts?\]$"#) {
            XCTAssertEqual(String(decoding: body, as: UTF8.self).components(separatedBy: "Content-Disposition: form-data").count - 1, parts, name)
        } else if let all = Self.number(text, #"… \[(\d+) bytes in all\]$"#) {
            XCTAssertEqual(body.count, all, name)
        } else {
            XCTAssertTrue(same(String(decoding: body, as: UTF8.self), text), "\(name): body differs:\n\(String(decoding: body, as: UTF8.self))\nshow:\n\(text)")
        }
    }

    static func number(_ text: String, _ pattern: String) -> Int? {
        guard let regex = try? NSRegularExpression(pattern: pattern),
              let match = regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)),
              let range = Range(match.range(at: 1), in: text) else { return nil }
        return Int(text[range])
    }
}
