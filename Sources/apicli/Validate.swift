import APIYAML
import APIDiagnostics
import APITargets
import APIEndpoint
import APIVerdict
import APIImport
import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension APICLI {
    struct Validate: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "validate",
            abstract: "Load and type-check target files, and judge every sample against its target's expectations.",
            usage: "apicli validate [<options>] [<file> ...]",  // argument-parser's own is wider than 80 columns
            discussion: """
                Samples are judged as `check --stub` judges them: with the validate: and timeout the project file, \
                the environment (--env) and the rules give each target. Nothing is expanded that a request needs \
                at run time, so unset secrets are not errors here. Prints every problem as file:line:col with the \
                source line. Exit codes: 0 no problems, 2 problems.
                """
        )

        @Argument(help: ArgumentHelp("Target files (default: every file of the targets folder).", valueName: "file"),
                  completion: .file(extensions: ["yaml", "yml"]))
        var files: [String] = []

        @OptionGroup var targets: TargetsOptions
        @OptionGroup var environment: EnvironmentOptions

        /// The plain values the run works from; the hand parser (HandParser.swift) fills them too.
        var values: ValidateValues { ValidateValues(files: files, targets: targets.values, environment: environment.values) }

        func run() throws { try values.run() }
    }
}

/// `validate`'s options as plain values, and its one run.
struct ValidateValues {
    var files: [String] = []
    var targets = TargetsValues()
    var environment = EnvironmentValues()

    func run() throws {
        Terminal.setUp()
        let console = Console.plain
        let workspace: Workspace
        let paths: [String]
        do throws(APIError) {
            workspace = try APICLI.workspace(targets, environment)
            paths = files.isEmpty ? try Catalog.files(in: targets.directory) : files
        } catch {
            throw console.fail(error, target: nil)
        }
        LeftToExit.growMemoryInLargeSteps()
        // No trees kept: a large file's targets are decoded as it is read, its tree never whole (`TargetFile.load`).
        var trees: [Node]? = nil
        let (services, problems) = CatalogCheck.run(files: paths, workspace: workspace, keeping: &trees)
        defer { LeftToExit.keep(services) }
        var warnings: [Diagnostic] = []
        var targetCount = 0, sampleCount = 0
        for service in services {
            targetCount += service.targets.count
            for i in service.targets.indices {  // by index: no copy of each Target
                if !service.targets[i].warnings.isEmpty { warnings += service.targets[i].warnings }  // += [] made a new array
                sampleCount += (service.targets[i].sample == nil ? 0 : 1) + service.targets[i].samples.count
            }
        }
        console.warn(warnings)
        if !problems.isEmpty { throw console.fail(.invalidInput(problems), target: nil) }
        console.out("ok: \(plural(paths.count, "file")), \(plural(targetCount, "target")), \(plural(sampleCount, "sample"))\n")
    }

    private func plural(_ n: Int, _ word: String) -> String {
        "\(n) \(word)\(n == 1 ? "" : "s")"
    }
}
