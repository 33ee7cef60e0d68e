import Foundation
import XCTest
@testable import APISupport
@testable import APIYAML
@testable import APIJSON
@testable import APIDiagnostics
@testable import APITargets
@testable import APIImport

/// schema/apicli-targets.schema.json (issue 37), judged by an independent validator, Python's
/// `jsonschema` (Tests/Servers/check-target-schema.py): every target file of the repository that
/// apicli accepts validates against it (the shipped targets/, the YAML blocks of docs/, the test
/// fixtures), the files apicli rejects for a wrong key or type do not, it is a valid draft 2020-12
/// schema, the binary's copy is the file, and its descriptions are the manual's.
final class TargetSchemaTests: XCTestCase {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let schemaFile = root.appendingPathComponent("schema/apicli-targets.schema.json")

    /// A file to judge: its name, which schema, whether apicli accepted it, the YAML as JSON text.
    struct Judged {
        var name: String
        var schema: EditorSchema
        var valid: Bool
        var json: String
    }

    /// Malformed/ files apicli rejects for a rule JSON Schema cannot state, and why.
    static let beyondSchema: [String: String] = [
        "params-body-conflict.yaml": "parameters: go in the body or the URL by the target's method and encoding:",
    ]

    func testTheBinarysCopyIsTheFile() throws {
        let file = try String(contentsOf: Self.schemaFile, encoding: .utf8)
        XCTAssertEqual(EditorSchema.targets.text + "\n", file, "run scripts/embed-schema.sh after editing the JSON")
        XCTAssertTrue(EditorSchema.project.text.contains(##""$ref": "#/$defs/project""##))
        XCTAssertFalse(EditorSchema.project.text.contains(##""$ref": "#/$defs/service""##))
    }

    func testEveryAcceptedFileValidatesAndRejectedOnesDoNot() throws {
        var judged: [Judged] = []
        var files: [String] = []
        for folder in ["targets", "Tests"] {
            let enumerator = FileManager.default.enumerator(atPath: Self.root.appendingPathComponent(folder).path)
            while let relative = enumerator?.nextObject() as? String {
                if relative.hasSuffix(".yaml") || relative.hasSuffix(".yml") { files.append(folder + "/" + relative) }
            }
        }
        var accepted = 0, rejected = 0
        for name in files.sorted() {
            let path = Self.root.appendingPathComponent(name).path
            guard let bytes = FileManager.default.contents(atPath: path).map(Array.init), let json = Self.json(bytes) else { continue }
            let malformed = name.contains("apicliTests/Malformed/") && Self.beyondSchema[Path.lastComponent(name)] == nil
            if let j = Self.judge(name: name, bytes: bytes, json: json, path: path,
                                  isProject: Project.fileNames.contains(Path.lastComponent(name)), mustReject: malformed) {
                if j.valid { accepted += 1 } else { rejected += 1 }
                judged.append(j)
            }
        }
        for literal in try Self.swiftLiterals() {
            let bytes = Array(literal.text.utf8)
            let isProject = Project.fileNames.contains { literal.name.hasSuffix($0 + ")") }
            guard let json = Self.json(bytes), let j = Self.judge(name: literal.name, bytes: bytes, json: json, path: nil, isProject: isProject),
                  j.valid else { continue }
            accepted += 1
            judged.append(j)
        }
        for (i, block) in try Self.docsBlocks().enumerated() {
            let bytes = Array(block.text.utf8)
            guard let json = Self.json(bytes), let j = Self.judge(name: "\(block.page) block \(i)", bytes: bytes, json: json, path: nil, isProject: false),
                  j.valid else { continue }
            accepted += 1
            judged.append(j)
        }
        for (i, snippet) in Self.rejectedSnippets.enumerated() {
            let bytes = Array(snippet.text.utf8)
            let json = try XCTUnwrap(Self.json(bytes), snippet.text)
            let j = try XCTUnwrap(Self.judge(name: "snippet \(i): \(snippet.text)", bytes: bytes, json: json, path: nil,
                                             isProject: snippet.project, mustReject: true))
            XCTAssertFalse(j.valid, "apicli accepts snippet \(i): \(snippet.text)")
            judged.append(j)
        }
        // GIVEN every shipped target, at least 40 accepted files and the malformed corpus
        XCTAssertGreaterThanOrEqual(accepted, 100)
        XCTAssertGreaterThanOrEqual(rejected, 30)
        XCTAssertTrue(judged.contains { $0.name == "targets/github.yaml" && $0.valid })
        // THEN jsonschema agrees with apicli on each
        let (code, out) = try Self.check(judged)
        XCTAssertEqual(code, 0, out)
    }

    /// Whether apicli accepts `bytes` (a service file, or the project file), and the schema to
    /// judge it with; nil for a file apicli rejects unless `mustReject` (the malformed corpus, the
    /// snippets): those the schema must reject too.
    static func judge(name: String, bytes: [UInt8], json: String, path: String?, isProject: Bool, mustReject: Bool = false) -> Judged? {
        if isProject {
            let ok = (try? Project.decode(bytes, file: name)) != nil
            return ok || mustReject ? Judged(name: name, schema: .project, valid: ok, json: json) : nil
        }
        let ok: Bool
        if let path { ok = (try? TargetFile.load(path)) != nil } else { ok = (try? TargetFile.decode(bytes, file: "docs/x.yaml", defaultName: "x")) != nil }
        if ok || mustReject { return Judged(name: name, schema: .targets, valid: ok, json: json) }
        if path == nil, (try? Project.decode(bytes, file: name)) != nil {
            return Judged(name: name, schema: .project, valid: true, json: json)  // a docs block of apicli.yaml
        }
        return nil
    }

    /// The YAML as JSON, read by apicli's own YAML layer (YAML 1.2's core schema, as
    /// yaml-language-server reads it); nil when it is no YAML.
    static func json(_ bytes: [UInt8]) -> String? {
        let node: Node?
        do { node = try YAMLParser.parse(bytes) } catch { return nil }
        return node.map { YAMLOut($0).jsonValue.jsonText } ?? "null"
    }

    /// Files apicli rejects for a wrong key or type, each a rule the schema states.
    static let rejectedSnippets: [(text: String, project: Bool)] = [
        ("baseURL: http://h\ntargets: { a: { pth: /x } }", false),
        ("baseURL: http://h\ntargets: { a: { check: yes } }", false),
        ("baseURL: http://h\ntargets: { a: { followRedirects: \"false\" } }", false),
        ("baseURL: http://h\nhttp2: h2\ntargets: {}", false),
        ("baseURL: http://h\ntls: { verfy: false }\ntargets: {}", false),
        ("baseURL: http://h\ntls: { pkcs12: a.p12, cert: a.pem }\ntargets: {}", false),
        ("baseURL: http://h\nauth: { bearer: t, basic: { user: u, password: p } }\ntargets: {}", false),
        ("baseURL: http://h\nauth: { basic: { user: u } }\ntargets: {}", false),
        ("baseURL: http://h\nauth: sometimes\ntargets: {}", false),
        ("baseURL: http://h\nauth: { oauth2: { tokenURL: http://t } }\ntargets: {}", false),
        ("baseURL: http://h\nauth: { oauth2: { tokenURL: http://t, clientId: c, grant: password } }\ntargets: {}", false),
        ("baseURL: http://h\nauth: { oauth2: { tokenURL: http://t, clientId: c, grant: implicit } }\ntargets: {}", false),
        ("baseURL: http://h\nauth: { aws: { region: eu-west-1 } }\ntargets: {}", false),
        ("baseURL: http://h\nrules: [ { headers: { A: b } } ]\ntargets: {}", false),
        ("baseURL: http://h\nrules: { match: \"*\" }\ntargets: {}", false),
        ("baseURL: http://h\nrules: [ { match: \"*\", task: { query: { a: 1 } } } ]\ntargets: {}", false),
        ("baseURL: http://h\nenvironments: { dev: { baseUrl: http://d } }\ntargets: {}", false),
        ("baseURL: http://h\ntimeout: 0\ntargets: {}", false),
        ("baseURL: http://h\ntimeout: 3 hours\ntargets: {}", false),
        ("baseURL: http://h\ntargets: { a: { method: { custom: \"A B\" } } }", false),
        ("baseURL: http://h\ntargets: { a: { method: { costum: PURGE } } }", false),
        ("baseURL: http://h\ntargets: { a: { task: { bools: yes } } }", false),
        ("baseURL: http://h\ntargets: { a: { method: POST, task: { multipart: [ { value: v } ] } } }", false),
        ("baseURL: http://h\ntargets: { a: { method: POST, task: { multipart: [ { name: n, value: v, file: f } ] } } }", false),
        ("baseURL: http://h\ntargets: { a: { method: POST, task: { multipart: [] } } }", false),
        ("baseURL: http://h\ntargets: { a: { method: POST, task: { multipart: [ { name: n, value: v } ], contentType: text/plain } } }", false),
        ("baseURL: http://h\ntargets: { a: { method: POST, task: { json: {}, upload: f.bin } } }", false),
        ("baseURL: http://h\ntargets: { a: { task: { graphql: { variables: { id: 1 } } } } }", false),
        ("baseURL: http://h\ntargets: { a: { task: { graphql: { query: q, errors: ignore } } } }", false),
        ("baseURL: http://h\ntargets: { a: { task: { download: out/ } } }", false),
        ("baseURL: http://h\ntargets: { a: { task: { websocket: { close: { code: 1001 } } } } }", false),
        ("baseURL: http://h\ntargets: { a: { task: { websocket: { send: [ { text: a, json: 1 } ] } } } }", false),
        ("baseURL: http://h\ntargets: { a: { task: { websocket: { deflate: sometimes } } } }", false),
        ("baseURL: http://h\ntargets: { a: { sample: { json: {}, events: [ { data: x } ] } } }", false),
        ("baseURL: http://h\ntargets: { a: { sample: { events: [ { event: tick } ] } } }", false),
        ("baseURL: http://h\ntargets: { a: { sample: { messages: [ { text: a, json: 1 } ] } } }", false),
        ("baseURL: http://h\ntargets: { a: { sample: { status: 99 } } }", false),
        ("baseURL: http://h\ntargets: { a: { sample: { masked: [token] } } }", false),
        ("baseURL: http://h\ntargets: { a: { sample: { delay: -1 } } }", false),
        ("baseURL: http://h\ntargets: { a: { samples: { slow: { dealy: 2 } } } }", false),
        ("baseURL: http://h\ntargets: { a: { expect: { status: 2xy } } }", false),
        ("baseURL: http://h\ntargets: { a: { expect: { status: [] } } }", false),
        ("baseURL: http://h\ntargets: { a: { expect: { body: { contains: a, matches: b } } } }", false),
        ("baseURL: http://h\ntargets: { a: { expect: { json: { args: 1 } } } }", false),
        ("baseURL: http://h\ntargets: { a: { expect: { events: { count: 1, first: {} } } } }", false),
        ("baseURL: http://h\ntargets: { a: { capture: { id: { json: $.id, header: Location } } } }", false),
        ("baseURL: http://h\ntargets: { a: { capture: { id: { secret: true } } } }", false),
        ("baseURL: http://h\ntargets: { a: { capture: { id.x: { json: $.id } } } }", false),
        ("baseURL: http://h\ntargets: { a: { needs: a.b.c } }", false),
        ("baseURL: http://h\ntargets: { a: { until: { expect: { status: 200 } } } }", false),
        ("baseURL: http://h\ntargets: { a: { stream: { reconnect: 101 } } }", false),
        ("baseURL: http://h\ntargets: { a: { stream: { maxEventSize: 10 } } }", false),
        ("baseURL: http://h\ntargets: { a: { load: { weight: 0 } } }", false),
        ("baseURL: http://h\ntargets: { a: { load: { thresholds: { p95: 200 } } } }", false),
        ("baseURL: http://h\ntargets: { a: { load: { thresholds: { p42: 1s } } } }", false),
        ("baseURL: http://h\ntargets: { a: { headers: { X-A: [1, 2] } } }", false),
        ("baseURL: http://h\ntargets: { a: { validate: [200, 99] } }", false),
        ("baseURL: http://h\ntargets: { a: { params: { id: { nested: 1 } } } }", false),
        ("targets: { a: {} }", false),
        ("baseURL: http://h", false),
        ("baseURL: http://h\ntargets: { a: {} }\ndocs: typo", false),
        ("timeout: soon", true),
        ("target: { a: {} }", true),
        ("baseURL: http://h", true),
        ("secrets: { TOKEN: { cmd: [pass, show, t] } }", true),
        ("secrets: { TOKEN: { command: \"pass show t\" } }", true),
        ("secrets: { \"A-B\": { command: [pass] } }", true),
        ("cookies: { jar: \"\" }", true),
        ("cookies: {}", true),
        ("load: { weight: 2 }", true),
        ("environments: { dev: { baseURL: [http://d] } }", true),
    ]

    /// The descriptions of the service's, a target's, a sample's, the project's and a rule's keys
    /// are the manual's table cells (links and code marks taken out).
    func testDescriptionsAreTheManuals() throws {
        let schema = try XCTUnwrap(JSONValue.parse(try Data(contentsOf: Self.schemaFile)))
        func description(_ def: String, _ key: String) -> String? {
            guard case .string(let s)? = schema["$defs"]?[def]?["properties"]?[key]?["description"] else { return nil }
            return s
        }
        let targetFiles = try Self.tables(page: "docs/target-files.md")
        let project = try Self.tables(page: "docs/project-file.md")
        var rows: [(def: String, keys: String, text: String)] = []
        for row in targetFiles[0] where row.count == 3 {
            if let def = ["file": "service", "target": "target", "sample": "sample"][row[0]] { rows.append((def, row[1], row[2])) }
        }
        rows += project[0].map { ("project", $0[0], $0[1]) } + project[1].map { ("rule", $0[0], $0[1]) }
        XCTAssertGreaterThan(rows.count, 50)
        for row in rows {
            for key in Self.keys(row.keys) {
                XCTAssertEqual(description(row.def, key), Self.plain(row.text), "\(row.def).\(key): the manual's text, as scripts/schema-descriptions.py writes it")
            }
        }
    }

    /// `` `timeout`, `validate` `` → [timeout, validate]; `` `body` / `json` `` → [body, json].
    static func keys(_ cell: String) -> [String] {
        cell.split(whereSeparator: { $0 == "," || $0 == "/" }).map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { $0.hasPrefix("`") }.map { $0.trimmingCharacters(in: CharacterSet(charactersIn: "`")) }
    }

    /// A table cell as plain text: `[text](link)` → text, no backticks, `\|` → `|`.
    static func plain(_ cell: String) -> String {
        cell.replacing(#/\[([^\]]*)\]\([^)]*\)/#) { String($0.output.1) }.replacing("`", with: "").replacing(#"\|"#, with: "|")
    }

    /// The tables of a docs page, each a list of rows of cells, without the heading row.
    static func tables(page: String) throws -> [[[String]]] {
        let text = try String(contentsOf: root.appendingPathComponent(page), encoding: .utf8)
        var tables: [[[String]]] = []
        var inTable = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            guard line.hasPrefix("|") else { inTable = false; continue }
            if !inTable { tables.append([]); inTable = true; continue }  // the heading row
            if line.hasPrefix("| ---") { continue }
            let cells = line.replacing(#"\|"#, with: "\u{1}").split(separator: "|", omittingEmptySubsequences: false).dropFirst().dropLast()
            tables[tables.count - 1].append(cells.map { $0.replacing("\u{1}", with: #"\|"#).trimmingCharacters(in: .whitespaces) })
        }
        return tables
    }

    /// The target files the tests write: the multi-line string literals of Tests/**/*.swift named
    /// `"….yaml": """` or starting with `baseURL:` or `service:`, those without interpolations or
    /// escapes (most of the repository's target files live there).
    static func swiftLiterals() throws -> [(name: String, text: String)] {
        var out: [(String, String)] = []
        let quotes = "\"\"\""
        let enumerator = FileManager.default.enumerator(atPath: root.appendingPathComponent("Tests").path)
        while let relative = enumerator?.nextObject() as? String {
            guard relative.hasSuffix(".swift"), !relative.hasSuffix("TargetSchemaTests.swift") else { continue }
            let text = try String(contentsOf: root.appendingPathComponent("Tests/" + relative), encoding: .utf8)
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
            var i = 0
            while i < lines.count {
                defer { i += 1 }
                let opener = lines[i].trimmingCharacters(in: .whitespaces)
                guard opener.hasSuffix(quotes), !opener.hasPrefix(quotes), !opener.hasSuffix("#" + quotes) else { continue }
                var j = i + 1
                while j < lines.count, !lines[j].trimmingCharacters(in: .whitespaces).hasPrefix(quotes) { j += 1 }
                guard j < lines.count else { break }
                let indent = lines[j].prefix(while: { $0 == " " }).count
                let body = lines[(i + 1)..<j].map { $0.count >= indent ? String($0.dropFirst(indent)) : "" }
                let named = opener.firstMatch(of: #/"([A-Za-z0-9_./-]+\.ya?ml)": """$/#).map { String($0.output.1) }
                let first = body.first { !$0.isEmpty && !$0.hasPrefix("#") } ?? ""
                let literal = body.joined(separator: "\n")
                if named != nil || first.hasPrefix("baseURL:") || first.hasPrefix("service:"), !literal.contains("\\") {
                    out.append(("Tests/\(relative):\(i + 1)" + (named.map { " (\($0))" } ?? ""), literal))
                }
                i = j
            }
        }
        return out
    }

    /// The ```yaml blocks of README.md and docs/*.md.
    static func docsBlocks() throws -> [(page: String, text: String)] {
        let docs = try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("docs").path)
        var out: [(String, String)] = []
        let pages = ["README.md"] + docs.filter { $0.hasSuffix(".md") }.sorted().map { "docs/" + $0 }
        for page in pages {
            let text = try String(contentsOf: root.appendingPathComponent(page), encoding: .utf8)
            var block: [Substring]?
            for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
                if block == nil, line.hasPrefix("```yaml") { block = [] } else if line.hasPrefix("```"), let b = block {
                    out.append((page, b.joined(separator: "\n")))
                    block = nil
                } else { block?.append(line) }
            }
        }
        return out
    }

    /// Runs check-target-schema.py over `judged` with both schemas.
    static func check(_ judged: [Judged]) throws -> (Int32, String) {
        let python = root.appendingPathComponent(".venv/bin/python").path
        guard FileManager.default.isExecutableFile(atPath: python) else {
            if ProcessInfo.processInfo.environment["APICLI_REQUIRE_LIVE"] == "1" { XCTFail("no .venv: run make venv (jsonschema)") }
            throw XCTSkip("no .venv with jsonschema: run make venv")
        }
        let files = judged.map { j in
            #"{"name":\#(Value.json(j.name).jsonText),"schema":"\#(j.schema.rawValue)","valid":\#(j.valid),"value":\#(j.json)}"#
        }
        let job = #"{"schemas":{"targets":\#(EditorSchema.targets.text),"project":\#(EditorSchema.project.text)},"files":[\#(files.joined(separator: ","))]}"#
        let p = Process()
        p.executableURL = URL(fileURLWithPath: python)
        p.arguments = [root.appendingPathComponent("Tests/Servers/check-target-schema.py").path]
        let input = root.appendingPathComponent(".run/target-schema-job-\(UUID().uuidString).json")
        try FileManager.default.createDirectory(at: input.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(job.utf8).write(to: input)
        defer { try? FileManager.default.removeItem(at: input) }
        p.standardInput = try FileHandle(forReadingFrom: input)
        let out = Pipe()
        p.standardOutput = out
        try p.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        return (p.terminationStatus, text)
    }
}

extension JSONValue {
    fileprivate subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.key == key }?.value
    }
}
