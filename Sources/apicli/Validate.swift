import APICore
import ArgumentParser
import Foundation

extension APICLI {
    struct Validate: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Load and type-check target files, and judge every sample against its target's expectations.",
            discussion: "Prints every problem as file:line:col with the source line. Exit codes: 0 no problems, 2 problems."
        )

        @Argument(help: ArgumentHelp("Target files (default: every file of the targets folder).", valueName: "file"),
                  completion: .file(extensions: ["yaml", "yml"]))
        var files: [String] = []

        @OptionGroup var targets: TargetsOptions

        func run() throws {
            Terminal.setUp()
            var problems: [Diagnostic] = []
            var services: [Service] = []
            let paths: [String]
            do {
                paths = files.isEmpty ? try Catalog.files(in: targets.directory) : files
            } catch {
                throw Terminal.fail(error, target: nil)
            }
            (services, problems) = Catalog.loadAll(files: paths)  // each file read once
            let count = paths.count
            let catalog = Catalog(services: services)
            let resolver = EndpointResolver(environment: ProcessInfo.processInfo.environment)
            for service in catalog.services {
                problems += SampleCheck.diagnostics(service, resolver: resolver)
            }
            if !problems.isEmpty { throw Terminal.fail(.invalidInput(problems), target: nil) }
            let targetCount = catalog.services.reduce(0) { $0 + $1.targets.count }
            let sampleCount = catalog.services.flatMap(\.targets).reduce(0) { $0 + ($1.sample == nil ? 0 : 1) + $1.samples.count }
            Terminal.out("ok: \(plural(count, "file")), \(plural(targetCount, "target")), \(plural(sampleCount, "sample"))\n")
        }

        private func plural(_ n: Int, _ word: String) -> String {
            "\(n) \(word)\(n == 1 ? "" : "s")"
        }
    }
}
