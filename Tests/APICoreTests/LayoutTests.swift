import Foundation
import XCTest

/// The layout shows the flow, and the code keeps it: APICore's folders are stages, and no stage
/// uses a type declared in a stage above it. The executable sends through the `Caller` alone.
/// (APICore is one module, so the compiler cannot say it; this test reads the sources and does.)
final class LayoutTests: XCTestCase {
    /// Each folder of Sources/APICore and its stage: a folder may use its own stage and those below.
    /// A new folder must be added here (the test fails until it is), with the stage it is.
    static let stages: [String: Int] = [
        // Foundations: no knowledge of targets.
        "Support": 0, "YAML": 0, "JSON": 0, "Diagnostics": 0, "Secrets": 0, "Schema": 0,
        // Target files decoded.
        "Targets": 1,
        // Target + layers → Endpoint → PreparedRequest (and the factory, Workspace).
        "Endpoint": 2,
        // Moving bytes: transports, HTTP rules (redirects, cookies, proxies), output files, the
        // framing of event streams (which the verdict judges and the Caller resumes).
        "Transport": 3, "HTTP": 3, "Output": 3, "Stream": 3,
        // Judging and printing what was exchanged.
        "Verdict": 4, "Rendering": 4,
        // The one send path: Caller, flows, plugins, OAuth2.
        "Send": 5,
        // Front stages: nothing below depends on them.
        "Check": 6, "Mock": 6, "Record": 6, "Import": 6, "Load": 6,
    ]

    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    func testNoStageUsesATypeOfAStageAboveIt() throws {
        let core = Self.root.appendingPathComponent("Sources/APICore")
        var files: [(stage: String, path: String, text: String)] = []
        for folder in try FileManager.default.contentsOfDirectory(atPath: core.path).sorted() {
            var isDir: ObjCBool = false
            guard FileManager.default.fileExists(atPath: core.appendingPathComponent(folder).path, isDirectory: &isDir),
                  isDir.boolValue else { continue }
            XCTAssertNotNil(Self.stages[folder], "Sources/APICore/\(folder) is in no stage: add it to LayoutTests.stages")
            let enumerator = FileManager.default.enumerator(atPath: core.appendingPathComponent(folder).path)
            while let file = enumerator?.nextObject() as? String {
                guard file.hasSuffix(".swift") else { continue }
                let path = "\(folder)/\(file)"
                files.append((folder, path, Self.code(try String(contentsOf: core.appendingPathComponent(path), encoding: .utf8))))
            }
        }
        // Where each top-level type is declared.
        var declared: [String: String] = [:]
        let declaration = try NSRegularExpression(
            pattern: #"^(?:public |internal |fileprivate |private |package )?(?:final )?(?:struct|enum|class|actor|protocol|typealias) ([A-Z][A-Za-z0-9_]*)"#,
            options: .anchorsMatchLines)
        for file in files {
            for m in declaration.matches(in: file.text, range: NSRange(file.text.startIndex..., in: file.text)) {
                declared[String(file.text[Range(m.range(at: 1), in: file.text)!])] = file.stage
            }
        }
        let word = try NSRegularExpression(pattern: #"\b[A-Z][A-Za-z0-9_]*\b"#)
        var backEdges: [String] = []
        for file in files {
            guard let rank = Self.stages[file.stage] else { continue }
            var used = Set<String>()
            for m in word.matches(in: file.text, range: NSRange(file.text.startIndex..., in: file.text)) {
                used.insert(String(file.text[Range(m.range, in: file.text)!]))
            }
            for name in used.sorted() {
                guard let stage = declared[name], let other = Self.stages[stage], other > rank else { continue }
                backEdges.append("\(file.path) uses \(name), declared in \(stage)/ (a stage above \(file.stage)/)")
            }
        }
        XCTAssertEqual(backEdges, [], "\n" + backEdges.joined(separator: "\n"))
    }

    /// Commands parse, call the core and render: none constructs a transport, an exchange, a
    /// resolver or a flow runner (the `Caller` and `Workspace` do).
    func testTheExecutableSendsOnlyThroughTheCaller() throws {
        let forbidden = ["LiveTransport(", "NIOConnector(", "KeepAliveConnector(", "H2CConnector(", "URLSessionConnector(",
                         "WebSocketTransport(", "StubTransport(", "OAuth2Transport(",
                         "Exchange.perform", "EndpointResolver(", "FlowRunner(", "RequestBuilder.build"]
        let folder = Self.root.appendingPathComponent("Sources/apicli")
        var found: [String] = []
        for file in try FileManager.default.contentsOfDirectory(atPath: folder.path) where file.hasSuffix(".swift") {
            let text = Self.code(try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8))
            for name in forbidden where text.contains(name) { found.append("Sources/apicli/\(file): \(name)") }
        }
        XCTAssertEqual(found, [])
    }

    /// On Linux, `import Foundation` links FoundationInternationalization and its ICU data (the
    /// stripped binary went from 33 to 83 MB when two files did); the program needs only
    /// FoundationEssentials. Every import of Foundation sits in the `#else` of a
    /// `canImport(FoundationEssentials)` check, or in a file only the URLSession trait compiles.
    func testTheProgramLinksFoundationEssentialsOnly() throws {
        var found: [String] = []
        for (path, text) in try Self.sourceFiles() {
            guard text.contains("\nimport Foundation\n") || text.hasPrefix("import Foundation\n") else { continue }
            let guarded = text.contains("#if canImport(FoundationEssentials)\nimport FoundationEssentials\n#else\nimport Foundation\n")
            let traitOnly = text.hasPrefix("#if !os(Linux) || URLSessionTransport")
            if !guarded && !traitOnly { found.append(path) }
        }
        XCTAssertEqual(found, [], "import FoundationEssentials (Foundation only in the #else of canImport(FoundationEssentials))")
    }

    /// Every Swift file of the program (APICore and apicli): its path from the package root, its text.
    static func sourceFiles() throws -> [(path: String, text: String)] {
        var files: [(path: String, text: String)] = []
        for module in ["Sources/APICore", "Sources/apicli"] {
            let folder = root.appendingPathComponent(module)
            let enumerator = FileManager.default.enumerator(atPath: folder.path)
            while let file = enumerator?.nextObject() as? String {
                guard file.hasSuffix(".swift") else { continue }
                files.append(("\(module)/\(file)", try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)))
            }
        }
        XCTAssertGreaterThan(files.count, 100, "the sources were not found under \(root.path)")
        return files
    }

    /// Without ICU (FoundationEssentials only) `TimeZone(identifier: "UTC")` is nil and a Calendar or
    /// Locale by name has no data: SigV4's `TimeZone(identifier: "UTC")!` killed every signed request
    /// (signal 4) in CI's fresh build, while an older build folder here still linked Foundation.
    /// Dates are computed by hand (HTTPDate), so none of these may come back.
    func testNoCodeNeedsICUData() throws {
        var found: [String] = []
        for (path, text) in try Self.sourceFiles() {
            let code = Self.code(text)
            for needle in ["TimeZone(identifier", "Calendar(identifier", "Locale(identifier", "DateFormatter", "Calendar.current", "TimeZone.current"]
            where code.contains(needle) {
                found.append("\(path): \(needle)")
            }
        }
        XCTAssertEqual(found, [], "ICU-backed Foundation API: compute dates by hand (see HTTPDate)")
    }

    /// The source without comments and string literals (what names a type there is no use of it).
    static func code(_ source: String) -> String {
        var out = ""
        var chars = Substring(source)
        while let c = chars.first {
            if chars.hasPrefix("//") {
                chars = chars.drop { $0 != "\n" }
            } else if chars.hasPrefix("/*") {
                if let end = chars.range(of: "*/") { chars = chars[end.upperBound...] } else { chars = "" }
            } else if chars.hasPrefix("\"\"\"") {
                let rest = chars.dropFirst(3)
                if let end = rest.range(of: "\"\"\"") { chars = rest[end.upperBound...] } else { chars = "" }
                out += "\"\""
            } else if c == "\"" {
                var rest = chars.dropFirst()
                while let d = rest.first, d != "\"", d != "\n" { rest = rest.dropFirst(d == "\\" ? 2 : 1) }
                chars = rest.dropFirst()
                out += "\"\""
            } else {
                out.append(c)
                chars = chars.dropFirst()
            }
        }
        return out
    }
}
