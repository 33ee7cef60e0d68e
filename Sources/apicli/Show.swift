import APISupport
import APIDiagnostics
import APISecrets
import APITargets
import APIEndpoint
import APIVerdict
import APISend
import APIImport
import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension APICLI {
    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "show",
            abstract: "Print a target's resolved endpoint: URL, method, headers, body, timeout, validation, samples.",
            discussion: """
                Nothing is sent. Credentials in headers are shown as ••••. The last lines say which layer \
                (apicli.yaml, an environment, a rule) set what.
                """
        )

        @Argument(help: "The target, as service.target.", completion: .custom(completeTargetNames))
        var target: String

        @OptionGroup var targets: TargetsOptions
        @OptionGroup var environment: EnvironmentOptions
        @OptionGroup var request: RequestOptions
        @OptionGroup var form: FormOptions

        func run() throws {
            Terminal.setUp()
            var console = Console.plain
            do throws(APIError) {
                let workspace = try APICLI.workspace(targets, environment, request, parts: try form.parts()).shownOnly()
                console = Console(workspace)
                let (service, target) = try workspace.find(self.target)
                console.warn(target.warnings)
                // A target with rows shows its first row's request (call --dry-run shows each).
                let rows = try workspace.rows([(service, target)], data: nil)
                // Nothing is sent: values the needs would capture show as {name}.
                let call = try workspace.build(rows[0].1, in: service, captured: FlowRunner.unsent(target, in: service, find: workspace.find))
                var text = render(call, console.redactor)
                if target.each != nil {
                    text += "rows      \(rows.count) (each:), shown with the first; call --dry-run prints each row's request\n"
                }
                console.out(text)
            } catch {
                throw console.fail(error, target: self.target)
            }
        }

        private func render(_ call: PreparedCall, _ redactor: Redactor) -> String {
            let (target, endpoint) = (call.target, call.endpoint)
            var text = "\(target.qualifiedName)  (\(call.service.file):\(target.mark.line))\n"
            if let doc = target.doc { text += "\(doc)\n" }
            text += "\n" + LogFormat.request(call.prepared, redactor: redactor, prefix: "")
            if let ws = call.prepared.websocket { text += WebSocketShow.lines(ws, expect: target.expect?.messages ?? [], redactor: redactor) }
            text += "\ntimeout   \(Text.duration(endpoint.timeout))\n"
            text += "validate  \(endpoint.validation)\n"
            if let socket = endpoint.socket { text += "socket    \(socket)\n" }
            if let download = endpoint.download { text += "download  \(download)\n" }
            if let when = target.when { text += "when      \(when.text)" + (call.skipReason == nil ? "\n" : "  (false: skipped)\n") }
            let samples = call.target.allSamples.map { ($0.name ?? "sample") + " " + describe($0.sample) }
            text += "samples   " + (samples.isEmpty ? "none" : samples.joined(separator: ", ")) + "\n"
            if !endpoint.cookies { text += "cookies   off\n" }
            if !endpoint.origins.isEmpty { text += "\n" + endpoint.origins.map { $0.description + "\n" }.joined() }
            return text
        }

        private func describe(_ s: Sample) -> String {
            if s.error != nil { return "(error)" }
            return "(\(s.status)\(s.delay > 0 ? ", after \(Text.duration(s.delay))" : ""))"
        }
    }
}
