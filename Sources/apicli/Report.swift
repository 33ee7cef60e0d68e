import APIDiagnostics
import APITransport
import APITargets
import APICheck
import APILoad
import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension APICLI {
    struct Report: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "report",
            abstract: "Work with the JSON reports of apicli check and apicli load.",
            subcommands: [Merge.self]
        )
    }
}

extension APICLI.Report {
    struct Merge: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "merge",
            abstract: "Merge the JSON reports of a sharded check (or load) into one report, as one unsharded run would have written it.",
            usage: "apicli report merge [<options>] <report.json> ...",  // argument-parser's own is wider than 80 columns
            discussion: """
                Every report must come from the same suite (the same selected targets, and the same --stub and \
                --all) and hold other shards of the same count; every shard must be there unless --allow-missing. \
                Prints the failures and the summary line.

                Exit codes: as apicli check over the merged results (0 all passed, 1 a check failed, 2 a target \
                could not be built, 3 every failure was a network failure, 4 every failure was a timeout), with \
                2 also for a report that cannot be read or is refused, and 5 for an output file that cannot be written.

                Load reports (apicli load --json) are recognised: their histograms and counts are added up and \
                the thresholds they carry judged again over the sum (exit 1 when one fails).
                """
        )

        @Argument(help: ArgumentHelp("JSON reports of apicli check --json, one per shard.", valueName: "report.json"),
                  completion: .file())
        var reports: [String]

        @Option(help: ArgumentHelp("Write the merged JUnit XML report.", valueName: "file"))
        var junit: String?

        @Option(help: ArgumentHelp("Write the merged JSON report.", valueName: "file"))
        var json: String?

        @Option(help: ArgumentHelp("Write the merged self-contained HTML report.", valueName: "file"))
        var reportHTML: String?

        @Flag(help: "Merge even when some shards are missing.")
        var allowMissing = false

        @Flag(help: "Exit 1 when a check passed only on a retry (flaky).")
        var failOnFlaky = false

        @OptionGroup var coverage: CoverageOptions

        func run() throws {
            Terminal.setUp()
            if let first = reports.first, let data = FileManager.default.contents(atPath: first), LoadJSON.isLoadReport(data) {
                return try mergeLoad()
            }
            let merged: ReportMerge.Merged
            var operations: [OpenAPIContract.Operation] = []
            do {
                if let spec = coverage.coverage { operations = try Coverage.load(spec) }
                var loaded: [LoadedReport] = []
                for file in reports { loaded.append(try JSONReportReader.read(file: file)) }
                merged = try ReportMerge.merge(loaded, allowMissing: allowMissing)
            } catch {
                throw Console.plain.fail(error, target: nil)
            }
            let results = merged.results
            Console.plain.out(TextReport.summary(results))
            // the merged results' requests and statuses, measured as check measures its own
            let covered = coverage.coverage.map { Coverage(spec: $0, operations: operations, results: results) }
            if let covered { Console.plain.out(covered.text) }
            try ReportFiles(junit: junit, json: json, html: reportHTML).write(results, run: merged.run, coverage: covered, .plain)
            var status = CheckValues.exitStatus(CheckSummary(results), failOnFlaky: failOnFlaky)
            if let shortfall = covered?.shortfall(coverage.coverageMin) {
                Console.plain.err("apicli: \(shortfall)\n")
                if status == .ok { status = .failed }
            }
            throw status.code
        }

        /// Load reports (`apicli load --json`): the histograms and counts added up, the thresholds
        /// judged again over the sum; exit 1 when one fails.
        private func mergeLoad() throws {
            let merged: LoadResult
            do throws(APIError) {
                var loaded: [(file: String, result: LoadResult)] = []
                for file in reports {
                    guard let data = FileManager.default.contents(atPath: file) else {
                        throw .invalidInput([Diagnostic(file: file, mark: nil, message: "cannot read the report", hint: nil)])
                    }
                    loaded.append((file, try LoadJSON.read(data, file: file)))
                }
                merged = try LoadMerge.merge(loaded, allowMissing: allowMissing)
            } catch {
                throw Console.plain.fail(error, target: nil)
            }
            let judged = LoadVerdict.judge(merged.thresholds, merged)
            Console.plain.out(LoadText.summary(merged, judged: judged))
            try ReportFiles.write(LoadJSON.render(merged), to: json, .plain)
            try ReportFiles.write(LoadText.junit(merged, judged: judged), to: junit, .plain)
            try ReportFiles.write(LoadHTML.render(merged, judged: judged), to: reportHTML, .plain)
            if judged.contains(where: { !$0.passed }) { throw ExitStatus.failed.code }
        }
    }
}
