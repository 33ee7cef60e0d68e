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
        let selected: [(Service, Target)]
        do throws(APIError) {
            selected = try Selection.select(try APICLI.workspace(targets).catalog(), patterns: patterns)
        } catch {
            throw console.fail(error, target: nil)
        }
        if selected.isEmpty {
            console.err("no targets in \(targets.directory)\n"
                        + "    hint: a target file is a .yaml file with baseURL: and targets:; `apicli import` writes one\n")
        }
        let rows = selected.map { service, target in
            (target.qualifiedName, target.method,
             URLBuilder.join(base: baseURL ?? service.baseURL.text, path: target.path?.text ?? ""),
             target.doc)
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
        let nameWidth = rows.map(\.0.count).max() ?? 0
        let methodWidth = rows.map(\.1.count).max() ?? 0
        let urlWidth = rows.map(\.2.count).max() ?? 0
        var text = ""
        for row in rows {
            text += row.0.padded(to: nameWidth + 2)
            text += row.1.padded(to: methodWidth + 2)
            if let doc = row.3 {
                text += row.2.padded(to: urlWidth + 2) + doc
            } else {
                text += row.2
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
