import APICore
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
        let console = Console.plain
        let catalog: Catalog
        var selected: [(Service, Target)]? = nil  // nil: every target (no patterns)
        var trees: [Node]? = []
        do throws(APIError) {
            catalog = try APICLI.workspace(targets).catalog(keeping: &trees)
            if !patterns.isEmpty { selected = try Selection.select(catalog, patterns: patterns) }
        } catch {
            throw console.fail(error, target: nil)
        }
        var rows: [(name: String, method: String, url: String, doc: String?)] = []
        func add(_ service: Service, _ target: Target) {
            rows.append((target.qualifiedName, target.method,
                         URLBuilder.join(base: baseURL ?? service.baseURL.text, path: target.path?.text ?? ""),
                         target.doc))
        }
        if let selected {
            for (service, target) in selected { add(service, target) }
        } else {
            for service in catalog.services { for target in service.targets { add(service, target) } }
        }
        defer { LeftToExit.keep((catalog, selected, trees, rows)) }
        if rows.isEmpty {
            console.err("no targets in \(targets.directory)\n"
                        + "    hint: a target file is a .yaml file with baseURL: and targets:; `apicli import` writes one\n")
        }
        if json {
            let items: [Value] = rows.map { row in
                var members: [Value.Member] = [
                    .init(key: "name", value: .text(row.0)),
                    .init(key: "method", value: .text(row.1)),
                    .init(key: "url", value: .text(row.2)),
                ]
                if let doc = row.3 { members.append(.init(key: "doc", value: .text(doc))) }
                return .object(members)
            }
            console.out(Value.array(items).jsonText + "\n")
            return
        }
        // Each width in characters, counted once per row (padding never cuts: every width is the longest + 2).
        let counts = rows.map { ($0.name.count, $0.method.count, $0.url.count) }
        let nameWidth = counts.reduce(0) { max($0, $1.0) }
        let methodWidth = counts.reduce(0) { max($0, $1.1) }
        let urlWidth = counts.reduce(0) { max($0, $1.2) }
        var text = ""
        for (row, count) in zip(rows, counts) {
            text += row.name
            text += String(repeating: " ", count: nameWidth + 2 - count.0)
            text += row.method
            text += String(repeating: " ", count: methodWidth + 2 - count.1)
            text += row.url
            if let doc = row.doc {
                text += String(repeating: " ", count: urlWidth + 2 - count.2)
                text += doc
            }
            text += "\n"
        }
        console.out(text)
    }
}

extension Value {
    /// A plain string value (no template marks needed for output).
    static func text(_ s: String) -> Value { .string(Template(s, mark: Mark(line: 0, column: 0))) }
}
