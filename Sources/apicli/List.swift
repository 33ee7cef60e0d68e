import APISupport
import APIYAML
import APIJSON
import APIDiagnostics
import APISchema
import APITargets
import APITransport
import APIImport
import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension APICLI {
    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list",
            abstract: "List every service.target with its method and URL.",
            discussion: """
                URLs are shown as declared: {placeholders} and ${VARS} are not expanded.
                Patterns select as `check` does: a service (github) or service.target globs ('httpbin.status*').
                A targets folder with no targets prints nothing on stdout ([] with --json), says so on stderr, exit 0.
                """
        )

        @Argument(help: ArgumentHelp("Services (github) or service.target globs ('httpbin.status*'); default: all.",
                                     valueName: "pattern"),
                  completion: .custom(completeTargetNames))
        var patterns: [String] = []

        @OptionGroup var targets: TargetsOptions

        @Option(name: .customLong("base-url"), help: ArgumentHelp("Show URLs under this base URL.", valueName: "url"))
        var baseURL: String?

        @Flag(help: "Print a JSON array for scripts.")
        var json = false

        /// The plain values the run works from; the hand parser (HandParser.swift) fills them too.
        var values: ListValues { ListValues(patterns: patterns, targets: targets.values, baseURL: baseURL, json: json) }

        func run() throws { try values.run() }
    }
}

/// `list`'s options as plain values, and its one run.
struct ListValues {
    var patterns: [String] = []
    var targets = TargetsValues()
    var baseURL: String?
    var json = false

    func run() throws {
        Terminal.setUp()
        LeftToExit.growMemoryInLargeSteps()
        let console = Console.plain
        let catalog: Catalog
        var selected: [(Service, Target)]? = nil  // nil: every target (no patterns)
        do throws(APIError) {
            // No trees kept: a large file's targets are decoded as it is read, its tree never whole (`TargetFile.load`).
            catalog = try APICLI.workspace(targets).catalog()
            if !patterns.isEmpty { selected = try Selection.select(catalog, patterns: patterns) }
        } catch {
            throw console.fail(error, target: nil)
        }
        var rows: [ListRow] = []
        if let selected {
            for (service, target) in selected { rows.append(ListRow(service, target, baseURL: baseURL)) }
        } else {
            // The first service's rows taken as they are (appended, 10,000 rows were copied once more).
            for service in catalog.services {
                if rows.isEmpty { rows = ListRow.rows(service, baseURL: baseURL) } else { rows += ListRow.rows(service, baseURL: baseURL) }
            }
        }
        defer { LeftToExit.keep((catalog, selected, rows)) }
        if rows.isEmpty {
            console.err("no targets in \(targets.directory)\n"
                        + "    hint: a target file is a .yaml file with baseURL: and targets:; `apicli import` writes one\n")
        }
        if json {
            let items: [Value] = rows.map { row in
                var members: [Value.Member] = [
                    .init(key: "name", value: .text(row.name)),
                    .init(key: "method", value: .text(row.method)),
                    .init(key: "url", value: .text(row.url)),
                ]
                if let doc = row.doc { members.append(.init(key: "doc", value: .text(doc))) }
                return .object(members)
            }
            console.out(Value.array(items).jsonText + "\n")
            return
        }
        // Widths in characters (padding never cuts: every width is the longest + 2).
        let nameWidth = rows.reduce(0) { max($0, $1.counts.name) }
        let methodWidth = rows.reduce(0) { max($0, $1.counts.method) }
        let urlWidth = rows.reduce(0) { max($0, $1.counts.url) }
        // Built as bytes (one buffer, no String growth per piece): 10,000 rows are 400 KB.
        let text = rows.withUnsafeBufferPointer { rows in
            var text: [UInt8] = []
            text.reserveCapacity(rows.count * (nameWidth + methodWidth + urlWidth + 8))
            func pad(_ n: Int) { text.append(contentsOf: repeatElement(UInt8(ascii: " "), count: n)) }
            // Each row read in place (`for row in rows` copied every one).
            for row in rows.indices {
                text.append(contentsOf: rows[row].name.utf8)
                pad(nameWidth + 2 - rows[row].counts.name)
                text.append(contentsOf: rows[row].method.utf8)
                pad(methodWidth + 2 - rows[row].counts.method)
                text.append(contentsOf: rows[row].url.utf8)
                if let doc = rows[row].doc {
                    pad(urlWidth + 2 - rows[row].counts.url)
                    text.append(contentsOf: doc.utf8)
                }
                text.append(UInt8(ascii: "\n"))
            }
            return text
        }
        console.out(String(decoding: text, as: UTF8.self))
    }
}

/// One line of `list`: a target's name, method, URL and doc, with the name's, method's and URL's
/// width in characters.
struct ListRow: Sendable {
    var name: String
    var method: String
    var url: String
    var doc: String?
    var counts: (name: Int, method: Int, url: Int)

    init(_ service: borrowing Service, _ target: borrowing Target, baseURL: String?) {
        self.init(base: baseURL ?? service.baseURL.text, service: target.service, name: target.name, method: target.method,
                  path: target.path?.text, doc: target.doc)
    }

    /// The row of the target at `target`, its fields read in place (a `Target` passed on, even
    /// borrowed, was copied whole: its retains and releases).
    init(base: String, _ target: UnsafePointer<Target>) {
        self.init(base: base, service: target.pointee.service, name: target.pointee.name, method: target.pointee.method,
                  path: target.pointee.path?.text, doc: target.pointee.doc)
    }

    private init(base: String, service: String, name: String, method: String, path: String?, doc: String?) {
        self.name = Target.qualifiedName(service: service, name: name)
        self.method = method
        url = URLBuilder.join(base: base, path: path ?? "")
        self.doc = doc
        counts = (Self.characters(self.name), Self.characters(method), Self.characters(url))
    }

    /// The number of characters of `s`: its byte count when every byte is ASCII other than CR (CR LF
    /// is the one ASCII pair that makes one character), else `count`.
    static func characters(_ s: String) -> Int {
        var s = s
        let plain = s.withUTF8 { bytes in !bytes.contains { $0 >= 0x80 || $0 == 0x0D } }
        return plain ? s.utf8.count : s.count
    }

    /// The rows of a service's targets in order; a service of 1,000 targets or more in two halves at once.
    static func rows(_ service: Service, baseURL: String?) -> [ListRow] {
        @Sendable func rows(_ range: Range<Int>, capacity: Int = 0) -> [ListRow] {
            var out: [ListRow] = []
            out.reserveCapacity(max(range.count, capacity))
            let base = baseURL ?? service.baseURL.text
            service.targets.withUnsafeBufferPointer { targets in
                for i in range { out.append(ListRow(base: base, targets.baseAddress! + i)) }
            }
            return out
        }
        let all = service.targets.indices
        guard all.count >= 1_000 else { return rows(all) }
        let half = all.count / 2
        var (first, second) = BothCores.run({ rows(0..<half, capacity: all.count) }, { rows(half..<all.count) })
        first += second
        return first
    }
}

extension Value {
    /// A plain string value (no template marks needed for output).
    static func text(_ s: String) -> Value { .string(Template(s, mark: Mark(line: 0, column: 0))) }
}
