import APIDiagnostics
import APITargets
import APIEndpoint
import APITransport
import APIVerdict
import APISend
import APIRecord
import APIImport
import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension APICLI {
    struct Record: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "record",
            abstract: "Send targets' requests and write each response into its target file as a sample.",
            discussion: """
                The target file is edited in place: only the lines of the written sample change. A body \
                over 4 KiB, or one that is not UTF-8 text, goes to samples/SERVICE.TARGET[.NAME].EXT next to \
                the target file. Credential headers (Set-Cookie, Authorization, …) are never written; secret \
                ${VAR} values met in the response are written as ${VAR:-••••}; volatile headers (Date, ETag, \
                request ids, rate limits, …) are left out unless --keep-header names them.

                Exit codes: 0 recorded, 1 a response was rejected by validate: (nothing written for it; \
                --accept-any records it), 2 bad target file or name, or the edit would break the file, 3 network \
                failure, 4 timeout, 5 a file could not be written.
                """
        )

        @Argument(help: ArgumentHelp("The targets, as service.target.", valueName: "target"),
                  completion: .custom(completeTargetNames))
        var names: [String]

        @OptionGroup var targets: TargetsOptions
        @OptionGroup var environment: EnvironmentOptions
        @OptionGroup var request: RequestOptions
        @Option(help: SendOptions.retriesHelp)
        var retries = 0

        @Option(help: ArgumentHelp("Write the response as this entry of samples: instead of sample:.", valueName: "name"))
        var sample: String?

        @Option(name: .customLong("mask"),
                help: ArgumentHelp("Replace the value at this JSONPath ($.token, $.items[*].id) with \"<masked>\" (repeatable); drift skips it.",
                                   valueName: "jsonpath"))
        var masks: [String] = []

        @Option(name: .customLong("keep-header"),
                help: ArgumentHelp("Keep this volatile header (Date, ETag, …) in the sample (repeatable); credential headers are never kept.",
                                   valueName: "name"))
        var keepHeaders: [String] = []

        @Option(name: .customLong("max-events"),
                help: ArgumentHelp("Record an event stream's first N events, then close it (1 to \(Sample.maxEvents)).", valueName: "n"))
        var maxEvents: Int?

        @Flag(name: .customLong("accept-any"), help: "Record a response that validate: rejects too.")
        var acceptAny = false

        @Flag(name: .shortAndLong, help: "No line per recorded target on stderr.")
        var quiet = false

        func validate() throws {
            try SendOptions.validate(retries: retries)
            for mask in masks where !mask.hasPrefix("$") {
                throw ValidationError("--mask takes a JSONPath starting with $, like $.token, got '\(mask)'")
            }
            if let sample, sample.isEmpty { throw ValidationError("--sample takes a name") }
            if let maxEvents, !(1...Sample.maxEvents).contains(maxEvents) {
                throw ValidationError("--max-events takes a count from 1 to \(Sample.maxEvents), got \(maxEvents)")
            }
        }

        func run() async throws {
            Terminal.setUp()
            var console = Console.plain
            var failures = Set<FailureKind>()
            var cookies: CookieJar?  // one jar for the run, whatever the workspaces
            for name in names {
                do throws(APIError) {
                    // Anew for each target: the one before may have rewritten its file.
                    let workspace = try APICLI.workspace(targets, environment, request, projectJar: true, cookies: cookies)
                    cookies = workspace.settings.cookies
                    console = Console(workspace)
                    let caller = Caller(workspace: workspace, policy: SendPolicy(retries: retries))
                    let (service, target) = try workspace.find(name)
                    // A target with rows (`each:`) records what its first row answers, as `show`
                    // shows its first row's request: the sample belongs to the target, not a row.
                    let rows = try workspace.rows([(service, target)], data: nil)
                    if rows.count > 1, !quiet {
                        console.err("apicli: \(name) has \(rows.count) rows (each:): recording what the first, \(rows[0].1.name), answers\n")
                    }
                    let call = try await caller.prepare(rows[0].1, in: service)
                    if try await !record(call, into: target, caller, console) { failures.insert(.expectation) }
                } catch {
                    _ = console.fail(error, target: name)
                    failures.insert(error.kind)
                }
            }
            let status = ExitStatus.of(failures)
            if status != .ok { throw status.code }
        }

        /// Sends, then writes the sample; false when the response was rejected and not written.
        private func record(_ call: PreparedCall, into target: Target, _ caller: Caller, _ console: Console) async throws(APIError) -> Bool {
            let name = target.qualifiedName
            if let reason = call.skipReason {  // `when:` is false: nothing sent, nothing written, no failure
                console.err("apicli: \(name) skipped: \(reason)\n")
                return true
            }
            // The body is kept by the recorder, which also times a stream's events.
            let recorder = EventRecorder(limit: call.request.maxBody, host: call.request.hostAndPort, maxEvents: maxEvents,
                                         maxEvent: call.request.maxEvent)
            let sent = await caller.send(call, transfer: Transfer(stream: recorder, head: { recorder.head($0) }))
            // --max-events ended the stream on purpose: what came is the answer.
            let (response, delays) = try recorder.finish(recorder.isFull ? nil : try sent.response())
            if let why = RecordedSample.unrecordable(response) { throw .stopped("\(name): not recorded: \(why)") }
            if !acceptAny, let refusal = Judge.refusal(response, validation: call.endpoint.validation) {
                console.err("apicli: \(name): not recorded: \(refusal.message) (--accept-any records it)\n")
                return false
            }
            let recorded = RecordedSample(response, options: .init(masks: masks, keepHeaders: keepHeaders, workspace: caller.workspace,
                                                                   sent: sent.request), delays: delays)
            let side = try Recorder.write(recorded, service: call.service, target: target, name: sample)
            if !quiet {
                let what = sample.map { "samples: \($0)" } ?? "sample:"
                console.err("apicli: recorded \(name) (\(response.status)) as \(what) in \(call.service.file)"
                            + (side.map { ", body in \($0)" } ?? "") + "\n")
            }
            return true
        }
    }
}
