import APISupport
import APIDiagnostics
import APITargets
import APIImport
import ArgumentParser

/// `apicli import postman` and `apicli import insomnia`: a collection → one service file per origin
/// in a folder. Every file is checked before any is written, so a refusal leaves the folder as it was.
struct ImportAppOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Folder to write the service files into (default: the targets folder).", valueName: "dir"))
    var to: String?

    @Option(help: ArgumentHelp("Service name (default: from the collection's name).", valueName: "name"))
    var service: String?

    @Flag(help: "Replace files that exist.")
    var force = false

    @OptionGroup var targets: TargetsOptions

    func validate() throws {
        if let service, !CurlImport.isName(service) {
            throw ValidationError("--service \(service): a service name holds only letters, digits, '_' and '-'")
        }
    }

    /// Reads `file`, imports it with `importer`, writes what it gives; errors rendered, exit codes chosen.
    func run(_ file: String, _ importer: some Importer) throws {
        Terminal.setUp()
        do throws(APIError) {
            let result = try importer.run(ImportInput(name: file, bytes: ImportIO.read(file)))
            try write(result)
        } catch {
            throw Console.plain.fail(error, target: nil)
        }
    }

    /// Writes the drafts, each as `DIR/SERVICE.yaml`, after checking that none exists (without --force).
    func write(_ result: ImportResult) throws(APIError) {
        ImportIO.warn(result.warnings)
        let plan = try ImportPlan.files(result.drafts, in: to ?? targets.directory, force: force)
        try ImportIO.write(plan) { write, _ in
            let n = write.draft.targets.count
            return "wrote \(write.path) (\(n) target\(n == 1 ? "" : "s"))"
        }
        if !result.warnings.isEmpty {
            Console.plain.err("apicli: \(result.warnings.count) warning\(result.warnings.count == 1 ? "" : "s")\n")
        }
    }
}

extension APICLI.Import {
    struct Postman: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "postman",
            abstract: "Write service files from a Postman Collection v2.0 or v2.1 (JSON).",
            usage: "apicli import postman [<options>] <collection>",  // argument-parser's own is wider than 80 columns
            discussion: """
                Folders prefix the target names (folder-request); {{variables}} become ${VARIABLES}; \
                auth, bodies, path variables and saved responses are mapped; scripts are not run \
                (a warning each). One service file per origin. Warnings go to stderr as FILE:LINE:COL: warning: …
                """
        )

        @Argument(help: ArgumentHelp("The exported collection.", valueName: "collection"),
                  completion: .file(extensions: ["json"]))
        var collection: String

        @OptionGroup var options: ImportAppOptions

        func run() throws {
            try options.run(collection, PostmanImport(options: .init(service: options.service)))
        }
    }
}

extension APICLI.Import {
    struct Insomnia: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "insomnia",
            abstract: "Write service files from an Insomnia export (format 4 JSON or YAML, or format 5 YAML).",
            usage: "apicli import insomnia [<options>] <export>",  // argument-parser's own is wider than 80 columns
            discussion: """
                Request groups prefix the target names; {{ _.variables }} become ${VARIABLES} with the base \
                environment's values as defaults; sub-environments that give a whole base URL become \
                environments:. One service file per origin. Warnings go to stderr as FILE:LINE:COL: warning: …
                """
        )

        @Argument(help: ArgumentHelp("The exported file.", valueName: "export"),
                  completion: .file(extensions: ["json", "yaml", "yml"]))
        var export: String

        @OptionGroup var options: ImportAppOptions

        func run() throws {
            try options.run(export, InsomniaImport(options: .init(service: options.service)))
        }
    }
}
