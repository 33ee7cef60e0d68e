import APISupport
import APIDiagnostics
import APITargets
import APITransport
import APIImport
import APIVerdict
import APIYAML
import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension APICLI {
    struct Import: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "import",
            abstract: "Write target files from an OpenAPI description, a curl command, a HAR recording, a Postman, Insomnia or Bruno collection or .http files.",
            discussion: """
                Exit codes: 0 written, 2 bad input (unreadable or invalid spec or command), \
                5 the file could not be written or exists (pass --force to replace it).
                """,
            subcommands: [OpenAPI.self, CurlCommand.self, Postman.self, Insomnia.self, Har.self, Http.self, Bruno.self]
        )
    }
}

/// Reading and writing shared by the import subcommands.
enum ImportIO {
    /// A file's bytes, or exit 2 naming it.
    static func read(_ path: String) throws(APIError) -> [UInt8] {
        guard let data = FileManager.default.contents(atPath: path) else {
            let reason = Path.exists(path) ? "it cannot be read" : "no such file"
            throw .invalid(Diagnostic(file: nil, mark: nil, message: "cannot read \(path): \(reason)"))
        }
        return [UInt8](data)
    }

    /// Writes `text` to `path` atomically (a temporary file, then a rename); `-` is stdout.
    /// An existing file is replaced only with `force`.
    static func write(_ text: String, to path: String, force: Bool) throws(APIError) {
        if path == "-" {
            Terminal.write(text)
            return
        }
        if !force, Path.exists(path) {
            throw .output("\(path) already exists; pass --force to replace it")
        }
        let folder = Path.parent(path)
        if !folder.isEmpty, !Path.exists(folder) {
            guard Path.makeDirectories(folder) != nil else {
                throw .output("cannot create folder \(folder): \(String(cString: strerror(errno)))")
            }
        }
        try OutputFile.write(Data(text.utf8), to: path)
    }


    /// All of standard input, as text.
    static func standardInput() -> String {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = buffer.withUnsafeMutableBytes { POSIX.read(STDIN_FILENO, $0.baseAddress!, $0.count) }
            if n < 0, errno == EINTR { continue }
            guard n > 0 else { break }
            bytes += buffer[..<n]
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    static func warn(_ warnings: [ImportWarning]) {
        for w in warnings { Console.plain.err("\(w)\n") }
    }

    /// Prints the plan's warnings, then writes its files, each reported on stderr by `report`
    /// (given the write and the number of warnings) unless it went to standard output.
    static func write(_ plan: ImportPlan, report: (ImportPlan.Write, Int) -> String) throws(APIError) {
        warn(plan.warnings)
        for w in plan.writes {
            try write(w.draft.text, to: w.path, force: true)
            if w.path != "-" { Console.plain.err("apicli: \(report(w, plan.warnings.count))\n") }
            _ = try InitFiles.schema(.targets, beside: w.path)  // the schema the file names, when the folder has none
        }
    }
}

extension APICLI.Import {
    struct OpenAPI: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "openapi",
            abstract: "Write a service file from a Swagger 2.0 or OpenAPI 3.0, 3.1 or 3.2 description (YAML or JSON).",
            usage: "apicli import openapi [<options>] <spec>",  // argument-parser's own is wider than 80 columns
            discussion: """
                Every operation becomes a target (named from operationId), with params, query, headers, \
                body, auth, expect: and samples from the description's examples or schemas. What cannot be \
                mapped is listed on stderr as FILE:LINE:COL: warning: …
                With --update, the file an earlier import wrote is brought in step with this description: \
                the keys you edited and the targets you added are kept (each target's x-import: mark tells them \
                apart), new operations are added, removed ones kept and marked; --dry-run prints the diff.
                """
        )

        @Argument(help: ArgumentHelp("The OpenAPI description.", valueName: "spec"),
                  completion: .file(extensions: ["yaml", "yml", "json"]))
        var spec: String

        @Option(help: ArgumentHelp("Service name (default: from info.title).", valueName: "name"))
        var service: String?

        @Option(name: .shortAndLong, help: ArgumentHelp("Where to write (default: TARGETS/SERVICE.yaml; - for stdout).", valueName: "file"))
        var output: String?

        @Option(help: ArgumentHelp("Only operations with one of these tags.", valueName: "t1,t2"))
        var tags: String?

        @Option(name: .customLong("allow-ref-root"),
                help: ArgumentHelp("A folder whose files $refs may name besides the spec's own (repeatable).", valueName: "dir"))
        var allowRefRoot: [String] = []

        @Flag(help: "Replace the file if it exists.")
        var force = false

        @Flag(help: "Bring the file an earlier import wrote in step with this description, keeping your edits.")
        var update = false

        @Flag(name: .customLong("dry-run"), help: "With --update: print the changes as a unified diff; write nothing.")
        var dryRun = false

        @OptionGroup var targets: TargetsOptions

        func validate() throws {
            for dir in allowRefRoot where !Path.isDirectory(dir) {
                throw ValidationError("--allow-ref-root \(dir): no such folder")
            }
            if update, force { throw ValidationError("--update keeps your edits; --force replaces the file: pass one of them") }
            if update, output == "-" { throw ValidationError("--update changes a file; -o - has none") }
            if dryRun, !update { throw ValidationError("--dry-run goes with --update") }
        }

        func run() throws {
            Terminal.setUp()
            let tagList = tags?.split(separator: ",").map { $0.trimmingSpaces() } ?? []
            do throws(APIError) {
                let importer = OpenAPIImport(options: .init(service: service, tags: tagList, refRoots: allowRefRoot), readFile: ImportIO.read)
                let result = try importer.run(ImportInput(name: spec, bytes: ImportIO.read(spec)))
                if update { return try runUpdate(importer, result) }
                let plan = try importer.plan(result, spec: spec, output: output, directory: targets.directory, force: force)
                try ImportIO.write(plan, report: { write, warnings in
                    let n = write.draft.targets.count
                    return "wrote \(write.path) (\(n) target\(n == 1 ? "" : "s"), \(warnings) warning\(warnings == 1 ? "" : "s"))"
                })
            } catch {
                throw Console.plain.fail(error, target: nil)
            }
        }
    }
}

extension APICLI.Import.OpenAPI {
    /// `--update`: the files merged (`ImportUpdate`), printed as a diff (`--dry-run`) or written;
    /// the report on stderr either way.
    func runUpdate(_ importer: OpenAPIImport, _ result: ImportResult) throws(APIError) {
        let plan = try importer.update(result, spec: spec, output: output, directory: targets.directory)
        defer { plan.discard() }
        ImportIO.warn(plan.warnings)
        if dryRun {
            for f in plan.files {
                Console.plain.out(LineDiff.unified(f.old ?? "", f.new, from: f.old == nil ? "/dev/null" : f.path, to: f.path))
            }
        } else {
            try plan.commit()
            for f in plan.files where f.old == nil { _ = try InitFiles.schema(.targets, beside: f.path) }
        }
        for f in plan.files {
            for line in f.report.lines { Console.plain.err("apicli: \(dryRun ? "dry run: " : "")\(line)\n") }
        }
        if !dryRun { warnUnlessValid(plan.files.map(\.path)) }
    }

    /// `validate` of the files written: a key you kept can disagree with one the description
    /// changed (an `expect:` you edited, and the description's new samples that it rejects or
    /// passes): each problem is a warning, so you know what to reconcile.
    private func warnUnlessValid(_ paths: [String]) {
        guard let workspace = try? APICLI.workspace(targets) else { return }
        var trees: [Node]? = nil
        var problems = CatalogCheck.run(files: paths, workspace: workspace, keeping: &trees).problems
        guard !problems.isEmpty else { return }
        Console.plain.err("apicli: warning: the update is written, but validate finds \(problems.count) problem\(problems.count == 1 ? "" : "s") "
                          + "where keys you kept and keys the description changed disagree; reconcile them:\n")
        for i in problems.indices { problems[i].isWarning = true }
        Console.plain.warn(problems)
    }
}

extension APICLI.Import {
    struct CurlCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "curl",
            abstract: "Write a target from a curl command (the inverse of call --curl).",
            usage: "apicli import curl [<options>] [<command>]",  // argument-parser's own is wider than 80 columns
            discussion: """
                The command comes as one argument (quote it) or on standard input. Prints a service file \
                with the one target, or with --to FILE adds the target to that service file.
                """
        )

        @Argument(help: ArgumentHelp("The curl command, quoted (default: read standard input).", valueName: "command"))
        var command: String?

        @Option(help: ArgumentHelp("Add the target to this service file instead of printing a new one.", valueName: "file"))
        var to: String?

        @Option(help: ArgumentHelp("The target's name (default: from the method and path).", valueName: "name"))
        var name: String?

        @Option(help: ArgumentHelp("Service name of a printed file (default: from the host).", valueName: "name"))
        var service: String?

        func run() throws {
            Terminal.setUp()
            let text = command ?? ImportIO.standardInput()
            do throws(APIError) {
                if let name, !CurlImport.isName(name) {
                    throw .invalid(Diagnostic(file: nil, mark: nil, message: "target name '\(name)' may only hold letters, digits, '_' and '-'"))
                }
                let importer = CurlImport(options: .init(service: service, name: name, cwd: FileManager.default.currentDirectoryPath))
                let result = try importer.run(ImportInput(name: CurlImport.inputName, text: text))
                ImportIO.warn(result.warnings)
                guard let to else {
                    Console.plain.out(result.draft.text)
                    return
                }
                let old = String(decoding: try ImportIO.read(to), as: UTF8.self)
                let new = try TargetAppend.append(result.draft.targets[0], base: result.draft.baseURL, to: old, file: to)
                try ImportIO.write(new, to: to, force: true)
                Console.plain.err("apicli: added \(result.draft.targets[0].name) to \(to)\n")
            } catch {
                throw Console.plain.fail(error, target: nil)
            }
        }
    }
}
