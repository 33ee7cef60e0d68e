import Foundation
import XCTest

/// The import invariant for `import postman` and `import insomnia`: whatever they write, `validate`
/// accepts, `check --stub` passes and `show` builds every target, with a dummy value for each
/// `${VAR}` the files need (a URL for `…URL`, `http` for `…SCHEME`, else `x`).
extension XCTestCase {
    @discardableResult
    func importApp(_ kind: String, _ file: String, into dir: URL, extra: [String] = [],
                   file f: StaticString = #filePath, line: UInt = #line) throws -> CLI.Result {
        let r = try CLI.run(["import", kind, file, "--to", dir.path] + extra, cwd: dir)
        XCTAssertEqual(r.code, 0, "import \(kind) \(file): \(r.stderr)", file: f, line: line)
        return r
    }

    /// The service files written into `dir`, by service name.
    func writtenFiles(_ dir: URL) throws -> [String: String] {
        var out: [String: String] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: dir.path) where name.hasSuffix(".yaml") {
            out[String(name.dropLast(5))] = try String(contentsOf: dir.appendingPathComponent(name), encoding: .utf8)
        }
        return out
    }

    /// Every `${NAME}` (without a default) the files name, with a dummy value.
    func dummyVariables(_ dir: URL) throws -> [String: String] {
        var env: [String: String] = [:]
        for text in try writtenFiles(dir).values {
            var rest = text[...]
            while let open = rest.firstRange(of: "${") {
                let isEscaped = open.lowerBound > rest.startIndex && rest[rest.index(before: open.lowerBound)] == "$"
                let name = rest[open.upperBound...].prefix { $0.isLetter || $0.isNumber || $0 == "_" }
                if !isEscaped, !name.isEmpty {
                    env[String(name)] = name.hasSuffix("URL") ? "http://127.0.0.1:9" : name.hasSuffix("SCHEME") ? "http" : "x"
                }
                rest = rest[open.upperBound...]
            }
        }
        return env
    }

    func assertImportInvariant(_ dir: URL, file: StaticString = #filePath, line: UInt = #line) throws {
        let env = try dummyVariables(dir)
        XCTAssertFalse(try writtenFiles(dir).isEmpty, "nothing written", file: file, line: line)
        let v = try CLI.run(["validate", "--targets", dir.path], cwd: dir)
        XCTAssertEqual(v.code, 0, "validate: \(v.stderr)", file: file, line: line)
        let c = try CLI.run(["check", "--stub", "--targets", dir.path], env: env, cwd: dir)
        XCTAssertEqual(c.code, 0, "check --stub: \(c.stdout)\(c.stderr)", file: file, line: line)
        let list = try CLI.run(["list", "--json", "--targets", dir.path], env: env, cwd: dir)
        let names = try JSONDecoder().decode([[String: String?]].self, from: list.stdoutData).compactMap { $0["name"] ?? nil }
        XCTAssertFalse(names.isEmpty, file: file, line: line)
        for name in names {
            let s = try CLI.run(["show", name, "--targets", dir.path], env: env, cwd: dir)
            XCTAssertEqual(s.code, 0, "show \(name): \(s.stderr)", file: file, line: line)
        }
    }
}
