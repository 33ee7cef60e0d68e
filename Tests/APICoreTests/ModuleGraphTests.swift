import Foundation
import XCTest

/// The stages are SwiftPM targets, so the compiler keeps the flow's order: a stage that imports a
/// stage above it does not build (Package.swift declares no such dependency, and `make warnings`
/// builds with `--explicit-target-dependency-import-check error`, so an undeclared import fails
/// too). This test reads the package graph SwiftPM describes and checks the order the
/// architecture page documents, and that page's picture of the graph.
final class ModuleGraphTests: XCTestCase {
    /// The stages below the front ones, in the flow's order: each may depend on those before it.
    static let stages = ["APISupport", "APIYAML", "APIJSON", "APIDiagnostics", "APISchema", "APISecrets", "APITargets",
                         "APIEndpoint", "APITransport", "APIVerdict", "APILive", "APISend"]
    /// Front stages: only the executable (and the tests) depend on them, and none on another.
    static let front = ["APICheck", "APILoad", "APIMock", "APIRecord", "APIImport", "APIExport"]
    /// The library (issue 38): the public Swift API over the stages up to the verdict, then its
    /// URLSession parts. Nothing of the program depends on them.
    static let library = ["APITargetsKit", "APITargetsURLSession"]
    /// Where the network engines start: no stage below `APILive` links one (a library over target
    /// files, samples and verdicts needs no NIO).
    static let engines = ["AsyncHTTPClient", "NIOCore", "NIOPosix", "NIOHTTP1", "NIOHTTP2", "NIOSSL", "NIOWebSocket",
                          "NIOHTTPCompression", "WSClient", "WSCompression"]

    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    struct Target: Decodable {
        var name: String
        var type: String
        var target_dependencies: [String]?
        var product_dependencies: [String]?
        var targets: [String] { target_dependencies ?? [] }
        var products: [String] { product_dependencies ?? [] }
    }

    /// `swift package describe --type json`'s targets: from the file `make test` writes before the
    /// tests run (APICLI_PACKAGE_DESCRIPTION; SwiftPM's lock on .build keeps a second SwiftPM from
    /// running while `swift test` does), else described here with a scratch folder of its own.
    struct Product: Decodable {
        var name: String
        var targets: [String]
    }

    static let targets: [String: Target] = description.targets

    static let products: [String: Product] = description.products

    static let description: (targets: [String: Target], products: [String: Product]) = {
        struct Package: Decodable {
            var targets: [Target]
            var products: [Product]
        }
        var data: Data?
        if let path = ProcessInfo.processInfo.environment["APICLI_PACKAGE_DESCRIPTION"] {
            data = FileManager.default.contents(atPath: path)
        } else {
            let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("apicli-describe-\(getpid())")
            defer { try? FileManager.default.removeItem(at: scratch) }
            let process = Process()
            let out = Pipe()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = ["swift", "package", "--package-path", root.path, "--scratch-path", scratch.path,
                                 "describe", "--type", "json"]
            process.standardOutput = out
            process.standardError = FileHandle.nullDevice
            if (try? process.run()) != nil {
                data = out.fileHandleForReading.readDataToEndOfFile()
                process.waitUntilExit()
            }
        }
        guard let data, let package = try? JSONDecoder().decode(Package.self, from: data) else { return ([:], [:]) }
        return (Dictionary(package.targets.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a }),
                Dictionary(package.products.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a }))
    }()

    func testEveryStageIsATargetThatDependsOnlyOnStagesBelowIt() throws {
        let targets = Self.targets
        XCTAssertFalse(targets.isEmpty, "swift package describe gave no targets")
        for (rank, name) in Self.stages.enumerated() {
            let target = try XCTUnwrap(targets[name], "\(name) is not a target of the package")
            for dependency in target.targets where dependency.hasPrefix("API") {
                let below = Self.stages.firstIndex(of: dependency).map { $0 < rank } ?? false
                XCTAssertTrue(below, "\(name) depends on \(dependency), which is not a stage below it")
            }
        }
        // Every API… target is a stage or a front stage (a new one is placed in the order here and
        // on the architecture page).
        for name in targets.keys where name.hasPrefix("API") && !name.hasSuffix("Tests") {
            XCTAssertTrue(Self.stages.contains(name) || Self.front.contains(name) || Self.library.contains(name),
                          "\(name) is in no stage: add it to ModuleGraphTests and docs/dev/architecture.md")
        }
    }

    func testOnlyTheExecutableAndTheTestsDependOnAFrontStage() throws {
        for target in Self.targets.values where target.type != "test" && target.name != "apicli" {
            for dependency in target.targets where Self.front.contains(dependency) {
                XCTFail("\(target.name) depends on the front stage \(dependency)")
            }
        }
        XCTAssertEqual(Set(Self.targets["apicli"]?.targets ?? []).intersection(Self.front), Set(Self.front))
    }

    func testNoStageBelowTheLiveEnginesLinksANetworkEngine() throws {
        let targets = Self.targets
        let live = try XCTUnwrap(Self.stages.firstIndex(of: "APILive"))
        for name in Self.stages[..<live] {
            var seen: Set<String> = []
            var queue = [name]
            while let next = queue.popLast() {
                guard seen.insert(next).inserted, let target = targets[next] else { continue }
                for product in target.products where Self.engines.contains(product) {
                    XCTFail("\(name) links \(product) (through \(next)): only APILive and above may")
                }
                queue += target.targets
            }
        }
    }

    /// The library's products are built from the stages up to APIVerdict and the library's own
    /// targets: no NIO, no async-http-client, no argument parser (what `swift package describe`
    /// says); the one package they link is swift-atomics (APISupport's `SignalExit` reads its list
    /// of files in a signal handler, with atomics, not a lock). And the program never links the
    /// library (its URLSession parts bring libcurl on Linux).
    func testTheLibraryProductsLinkNoNetworkEngineAndTheProgramNoLibrary() throws {
        let verdict = try XCTUnwrap(Self.stages.firstIndex(of: "APIVerdict"))
        // The system libraries (libyaml, PCRE2) the stages wrap are no engines.
        let system = Self.targets.values.filter { $0.type == "system-target" }.map(\.name)
        let allowed = Set(Self.stages[...verdict] + Self.library + system)
        for product in ["APITargetsKit", "APITargetsURLSession"] {
            let roots = try XCTUnwrap(Self.products[product], "no library product \(product)").targets
            let reached = Self.reached(from: roots)
            XCTAssertEqual(reached.targets.subtracting(allowed), [], "\(product) reaches targets beyond the verdict")
            XCTAssertEqual(reached.products, ["Atomics"], "\(product) links \(reached.products.sorted())")
        }
        XCTAssertFalse(Self.reached(from: ["APITargetsKit"]).targets.contains("APITargetsURLSession"))
        for program in ["apicli", "apicli-fuzz"] {
            XCTAssertEqual(Self.reached(from: [program]).targets.intersection(Self.library), [], "\(program) links the library")
        }
    }

    /// Every target and product `roots` depend on, directly or not (the roots included).
    static func reached(from roots: [String]) -> (targets: Set<String>, products: Set<String>) {
        var seen: Set<String> = []
        var products: Set<String> = []
        var queue = roots
        while let next = queue.popLast() {
            guard seen.insert(next).inserted, let target = targets[next] else { continue }
            products.formUnion(target.products)
            queue += target.targets
        }
        return (seen, products)
    }

    /// The graph as README and docs/dev/architecture.md show it: every stage with what it depends on
    /// directly, in the flow's order. Regenerate the page's block from this test's failure message.
    func testReadmeAndTheArchitecturePageShowTheModuleGraph() throws {
        let graph = Self.graphText(Self.targets)
        XCTAssertFalse(graph.isEmpty)
        for page in ["README.md", "docs/dev/architecture.md"] {
            let text = try String(contentsOf: Self.root.appendingPathComponent(page), encoding: .utf8)
            let shown = text.components(separatedBy: "<!-- module-graph -->\n```\n").dropFirst().first?
                .components(separatedBy: "```").first ?? ""
            XCTAssertEqual(shown, graph, "\(page)'s module graph differs; it is:\n\(graph)")
        }
    }

    static func graphText(_ targets: [String: Target]) -> String {
        let order = stages + front + ["apicli", "apicli-fuzz"] + library
        let width = order.map(\.count).max() ?? 0
        var out = ""
        for name in order {
            guard let target = targets[name] else { continue }
            let uses = target.targets.sorted { (order.firstIndex(of: $0) ?? -1, $0) < (order.firstIndex(of: $1) ?? -1, $1) }
                + target.products.sorted()
            out += name.padding(toLength: width, withPad: " ", startingAt: 0) + "  → " + (uses.isEmpty ? "(Foundation only)" : uses.joined(separator: ", ")) + "\n"
        }
        return out
    }

    /// Commands parse, call the core and render: none constructs a transport, an exchange, a
    /// resolver or a flow runner (the `Caller` and `Workspace` do).
    func testTheExecutableSendsOnlyThroughTheCaller() throws {
        let forbidden = ["LiveTransport(", "NIOConnector(", "URLSessionConnector(", "StubTransport(", "OAuth2Transport(",
                         "KeepAliveConnector(", "KeepAlivePool(", "H2CConnector(", "WebSocketTransport(", "DigestTransport(",
                         "SigV4Transport(", "ClientPool(", "Exchange.perform", "EndpointResolver(", "FlowRunner(",
                         "RequestBuilder.build"]
        let folder = Self.root.appendingPathComponent("Sources/apicli")
        var found: [String] = []
        for file in try FileManager.default.contentsOfDirectory(atPath: folder.path) where file.hasSuffix(".swift") {
            let text = Self.code(try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8))
            for name in forbidden where text.contains(name) { found.append("Sources/apicli/\(file): \(name)") }
            // No engine at all: the executable reaches the live transports through the send stage.
            if text.contains("import APILive\n") { found.append("Sources/apicli/\(file): import APILive") }
        }
        XCTAssertEqual(found, [])
    }

    /// On Linux, `import Foundation` links FoundationInternationalization and its ICU data (the
    /// stripped binary went from 33 to 83 MB when two files did); the program needs only
    /// FoundationEssentials. Every import of Foundation sits in the `#else` of a
    /// `canImport(FoundationEssentials)` check, or in a file only the URLSession trait compiles.
    func testTheProgramLinksFoundationEssentialsOnly() throws {
        var found: [String] = []
        // The library is no part of the program: its users link Foundation anyway.
        for (path, text) in try Self.sourceFiles() where !Self.library.contains(where: { path.hasPrefix("Sources/\($0)/") }) {
            guard text.contains("\nimport Foundation\n") || text.hasPrefix("import Foundation\n") else { continue }
            let guarded = text.contains("#if canImport(FoundationEssentials)\nimport FoundationEssentials\n#else\nimport Foundation\n")
            let traitOnly = text.hasPrefix("#if !os(Linux) || URLSessionTransport\n")
            if !guarded && !traitOnly { found.append(path) }
        }
        XCTAssertEqual(found, [], "import FoundationEssentials (Foundation only in the #else of canImport(FoundationEssentials))")
    }

    /// Every Swift file of the program (the stages and apicli): its path from the package root, its text.
    static func sourceFiles() throws -> [(path: String, text: String)] {
        var files: [(path: String, text: String)] = []
        let sources = root.appendingPathComponent("Sources")
        for module in try FileManager.default.contentsOfDirectory(atPath: sources.path).sorted()
        where module.hasPrefix("API") || module == "apicli" {
            let folder = sources.appendingPathComponent(module)
            let enumerator = FileManager.default.enumerator(atPath: folder.path)
            while let file = enumerator?.nextObject() as? String {
                guard file.hasSuffix(".swift") else { continue }
                files.append(("Sources/\(module)/\(file)", try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)))
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
