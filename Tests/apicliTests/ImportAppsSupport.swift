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

    /// `text` holds every one of `expected` and none of `secrets`; `stderr` holds each of `warnings`.
    func assertWritten(_ text: String, holds expected: [String], never secrets: [String], stderr: String, warnings: [String],
                       file: StaticString = #filePath, line: UInt = #line) {
        for e in expected { XCTAssertTrue(text.contains(e), "missing \(e) in\n\(text)", file: file, line: line) }
        for s in secrets { XCTAssertFalse(text.contains(s), "\(s) written in\n\(text)", file: file, line: line) }
        for w in warnings { XCTAssertTrue(stderr.contains(w), "missing warning \(w) in\n\(stderr)", file: file, line: line) }
    }

    /// `import KIND FILE --to out` in `dir` exits 2 with `message` for each, and writes nothing.
    func assertRefused(_ kind: String, _ cases: [(file: String, message: String)], in dir: URL,
                       file: StaticString = #filePath, line: UInt = #line) throws {
        for (input, message) in cases {
            let r = try CLI.run(["import", kind, input, "--to", "out"], cwd: dir)
            XCTAssertEqual(r.code, 2, "\(input): \(r.stderr)", file: file, line: line)
            XCTAssertTrue(r.stderr.contains(message), "\(input): \(r.stderr)", file: file, line: line)
            XCTAssertFalse(FileManager.default.fileExists(atPath: dir.appendingPathComponent("out").path), input, file: file, line: line)
        }
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
