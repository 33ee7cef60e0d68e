import APISupport
import APIDiagnostics
import APITargets
import APITransport
import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension APICLI {
    struct Init: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "init",
            abstract: "Start a targets folder: a commented example service file and apicli.yaml.",
            discussion: """
                Writes DIR/example.yaml and DIR/apicli.yaml, each naming the JSON Schema editors check \
                it with, and the schema files beside them (apicli schema). Nothing is overwritten. \
                Exit codes: 0 written, 5 a file exists or cannot be written (nothing is written then).
                """
        )

        @Argument(help: ArgumentHelp("The targets folder to start (created if missing).", valueName: "dir"),
                  completion: .directory)
        var directory = "targets"

        func run() throws {
            do throws(APIError) {
                for line in try InitFiles.write(in: directory) { Console.plain.err("apicli: wrote \(line)\n") }
            } catch {
                throw Console.plain.fail(error, target: nil)
            }
            Console.plain.err("apicli: try: apicli list\(directory == "targets" ? "" : " --targets \(directory)"), "
                              + "then apicli call example.echo --stub\n")
        }
    }
}

/// What `init` writes, and the schema files every writer of target files puts beside its file.
enum InitFiles {
    /// Writes the example and the project file into `directory` (refusing, before writing anything,
    /// when either exists), then the schema files it lacks. Returns the paths written.
    static func write(in directory: String) throws(APIError) -> [String] {
        let files = [(Path.join(directory, "example.yaml"), example), (Path.join(directory, Project.fileNames[0]), project)]
        for (path, _) in files where Path.exists(path) {
            throw .output("\(path) already exists; init writes no file over another (remove it, or init another folder)")
        }
        if let other = Project.fileNames.dropFirst().map({ Path.join(directory, $0) }).first(where: Path.exists) {
            throw .output("\(other) already exists; a folder has one project file")
        }
        var written: [String] = []
        for (path, text) in files {
            try ImportIO.write(text, to: path, force: false)
            written.append(path)
        }
        for kind in EditorSchema.allCases {
            if let path = try schema(kind, beside: files[0].0) { written.append(path) }
        }
        return written
    }

    /// Writes `kind`'s schema into the folder of `file` when it is not there (`import` and
    /// `call --save` call this for each file they create, `init` for its two). Returns its path then.
    static func schema(_ kind: EditorSchema, beside file: String) throws(APIError) -> String? {
        guard file != "-" else { return nil }
        let path = Path.join(Path.parent(file), kind.fileName)
        guard !Path.exists(path) else { return nil }
        try ImportIO.write(kind.text + "\n", to: path, force: false)
        return path
    }

    /// The example service file: every line a key a newcomer needs first, each explained.
    static let example = """
        \(EditorSchema.targets.modeline)
        # A service file: one per API; this one is the service `example` (the file's name).
        # Call a target as example.TARGET: `apicli call example.echo --stub` answers from its
        # sample, offline; without --stub it is sent to baseURL. The manual: man 5 apicli-targets.
        baseURL: https://httpbin.org           # required: http:// or https://; may hold ${VAR}
        headers: { Accept: application/json }  # sent with every target
        timeout: 30s                           # the whole exchange (default 60 s)
        validate: success                      # a status outside 200-299 is exit 1
        targets:
          echo:
            doc: Echo the query string         # shown by `apicli list`
            path: /get                         # appended to baseURL
            params: { word: hello }            # {word}'s default; -p word=bye overrides it
            task: { query: { q: "{word}" } }   # sent as ?q=hello
            sample:                            # what --stub answers (and `apicli mock` serves)
              json: { args: { q: hello } }
            expect:                            # what `apicli check` calls healthy
              status: 200
              json: { "$.args.q": hello }  
          create:
            method: POST
            path: /post
            task: { json: { name: apicli, tags: [cli, http] } }   # a JSON body
            sample: { status: 200, json: { json: { name: apicli } } }

        """

    /// The project file: defaults for every service of the folder.
    static let project = """
        \(EditorSchema.project.modeline)
        # The project file: defaults, rules and environments for every service of this folder.
        # The manual: docs/project-file.md (man 5 apicli-targets).
        headers: { X-Client: apicli }          # sent with every target of every service
        environments:                          # --env local (or APICLI_ENV=local)
          local: { baseURL: "http://127.0.0.1:8080" }
        # rules:                               # headers, auth, timeouts for targets by name
        #   - match: "example.*"
        #     auth: { bearer: "${EXAMPLE_TOKEN}" }

        """
}
