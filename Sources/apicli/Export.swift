import APISupport
import APIDiagnostics
import APIYAML
import APITargets
import APIExport
import ArgumentParser

extension APICLI {
    struct Export: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "export",
            abstract: "Write a description of the target files: an OpenAPI 3.1 document.",
            discussion: """
                Exit codes: 0 written, 2 bad input (a target file that does not load, an unknown \
                service), 5 the file could not be written or exists (pass --force to replace it).
                """,
            subcommands: [OpenAPI.self]
        )
    }
}

extension APICLI.Export {
    struct OpenAPI: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "openapi",
            abstract: "Write an OpenAPI 3.1 description of the target files (YAML or JSON).",
            discussion: """
                Targets become operations (paths, parameters, request bodies), samples become responses \
                with examples, inline expect: schema: become response schemas, baseURL the servers and \
                auth: security schemes (never a credential's value). Targets a description cannot express \
                (WebSocket, event streams, a method OpenAPI has no field for) are left out, each with a \
                warning on stderr.
                """
        )

        @OptionGroup var targets: TargetsOptions

        @Option(help: ArgumentHelp("Only these services (default: every service of the folder).", valueName: "s1,s2"))
        var service: String?

        @Option(name: .shortAndLong, help: ArgumentHelp("Where to write (default: standard output).", valueName: "file"))
        var output: String?

        @Option(help: ArgumentHelp("yaml or json (default: from the -o file's extension, else yaml).", valueName: "format"))
        var format: String?

        @Option(help: ArgumentHelp("The description's info.title (default: the service's name).", valueName: "title"))
        var title: String?

        @Flag(help: "Replace the -o file if it exists.")
        var force = false

        func validate() throws {
            if let format, !["yaml", "json"].contains(format) {
                throw ValidationError("--format \(format): use yaml or json")
            }
        }

        func run() throws {
            Terminal.setUp()
            do throws(APIError) {
                var trees: [Node]? = []
                let catalog = try Catalog.load(directory: targets.directory, keeping: &trees)
                let names = service?.split(separator: ",").map { $0.trimmingSpaces() }
                let (services, kept) = try OpenAPIExport.select(catalog.services, trees: trees, names: names, folder: targets.directory)
                let project = try Project.load(directory: targets.directory)
                let result = OpenAPIExport(options: .init(title: title)).run(services, trees: kept, project: project)
                Console.plain.warn(result.warnings)
                let json = format == "json" || (format == nil && (output ?? "").lowercased().hasSuffix(".json"))
                let text = json ? result.json : result.yaml
                if let output, output != "-" {
                    try ImportIO.write(text, to: output, force: force)
                    let n = result.operations
                    Console.plain.err("apicli: wrote \(output) (\(n) operation\(n == 1 ? "" : "s"), \(result.warnings.count) warning\(result.warnings.count == 1 ? "" : "s"))\n")
                } else {
                    Console.plain.out(text)
                }
            } catch {
                throw Console.plain.fail(error, target: nil)
            }
        }
    }
}
