import APIDiagnostics
import APIImport
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
            usage: "apicli import har [<options>] <file>",  // argument-parser's own is wider than 80 columns
            discussion: """
                One service file per origin (DIR/SERVICE.yaml), one target per method and path (ids as {id}), \
                the recorded responses as samples. Static assets are skipped unless --all; Authorization, \
                cookies and secret-looking headers, query and form fields are written as ${VAR}s, never as \
                recorded. Exit codes: 0 written, 2 bad input, 5 a file exists (--force) or cannot be written.
                """
        )

        @Argument(help: ArgumentHelp("The HAR file.", valueName: "file"), completion: .file(extensions: ["har", "json"]))
        var file: String

        @Flag(help: "Import static assets too (style sheets, scripts, images, fonts, media, HTML pages).")
        var all = false

        /// --to, --service, --force and the targets folder, written as postman and insomnia write.
        @OptionGroup var options: ImportAppOptions

        func run() throws {
            Terminal.setUp()
            do throws(APIError) {
                let importer = HarImport(options: .init(service: options.service, all: all))
                try options.write(importer.run(ImportInput(name: file, bytes: ImportIO.read(file))))
            } catch {
                throw Console.plain.fail(error, target: nil)
            }
        }
    }
}
