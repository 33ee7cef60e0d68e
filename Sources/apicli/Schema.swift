import APITargets
import ArgumentParser

extension APICLI {
    struct Schema: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "schema",
            abstract: "Print the JSON Schema of service files (targets) or of apicli.yaml (project).",
            discussion: """
                Draft 2020-12, for editors: the files apicli writes start with \
                `# yaml-language-server: $schema=.apicli-targets.schema.json` (.apicli-project.schema.json \
                for apicli.yaml), a file beside them that `init` and `import` write when it is missing. \
                After upgrading apicli: apicli schema > targets/.apicli-targets.schema.json. Exit codes: 0; \
                64 an unknown kind.
                """
        )

        @Argument(help: "targets (a service file, the default) or project (apicli.yaml).")
        var kind: EditorSchema = .targets

        func run() {
            Console.plain.out(kind.text + "\n")
        }
    }
}

extension EditorSchema: ExpressibleByArgument {}
