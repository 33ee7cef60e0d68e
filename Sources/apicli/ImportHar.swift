import APICore
import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension APICLI.Import {
    struct Har: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "har",
            abstract: "Write service files from a HAR recording (a browser's or a proxy's).",
            discussion: """
                One service file per origin (DIR/SERVICE.yaml), one target per method and path (ids as {id}), \
                the recorded responses as samples. Static assets are skipped unless --all; Authorization, \
                cookies and secret-looking headers, query and form fields are written as ${VAR}s, never as \
                recorded. Exit codes: 0 written, 2 bad input, 5 a file exists (--force) or cannot be written.
                """
        )

        @Argument(help: ArgumentHelp("The HAR file.", valueName: "file"), completion: .file(extensions: ["har", "json"]))
        var file: String

        @Option(help: ArgumentHelp("Where to write the service files (default: the targets folder).", valueName: "dir"))
        var to: String?

        @Option(help: ArgumentHelp("Service name (default: from the host); with several origins, a prefix.", valueName: "name"))
        var service: String?

        @Flag(help: "Import static assets too (style sheets, scripts, images, fonts, media, HTML pages).")
        var all = false

        @Flag(help: "Replace files that exist.")
        var force = false

        @OptionGroup var targets: TargetsOptions

        func validate() throws {
            if let service, !CurlImport.isName(service) {
                throw ValidationError("--service \(service): a service name may only hold letters, digits, '_' and '-'")
            }
        }

        func run() throws {
            Terminal.setUp()
            do throws(APIError) {
                let result = try HarImport.run(try ImportIO.read(file), file: file, options: .init(service: service, all: all))
                ImportIO.warn(result.warnings)
                let dir = to ?? targets.directory
                let files = result.drafts.map { (Path.join(dir, "\($0.service).yaml"), $0) }
                if !force, let existing = files.first(where: { Path.exists($0.0) }) {
                    throw .output("\(existing.0) already exists; pass --force to replace it (nothing was written)")
                }
                for (path, draft) in files {
                    try ImportIO.write(draft.text, to: path, force: true)
                    let n = draft.targets.count
                    Console.plain.err("apicli: wrote \(path) (\(n) target\(n == 1 ? "" : "s"))\n")
                }
            } catch {
                throw Console.plain.fail(error, target: nil)
            }
        }
    }
}
