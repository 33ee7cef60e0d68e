import APICore
import ArgumentParser
import Foundation

extension APICLI {
    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print a target's resolved endpoint: URL, method, headers, body, timeout, validation, samples.",
            discussion: "Nothing is sent. Credentials in headers are shown as ••••."
        )

        @Argument(help: "The target, as service.target.", completion: .custom(completeTargetNames))
        var target: String

        @OptionGroup var targets: TargetsOptions
        @OptionGroup var request: RequestOptions
        @OptionGroup var form: FormOptions

        func run() throws {
            Terminal.setUp()
            do {
                let call = try ResolvedCall(target, targets: targets, options: request, parts: try form.parts())
                Terminal.out(render(call.target, call.service, call.endpoint, call.prepared))
            } catch {
                throw Terminal.fail(error, target: self.target)
            }
        }

        private func render(_ target: Target, _ service: Service, _ endpoint: Endpoint, _ request: PreparedRequest) -> String {
            var text = "\(target.qualifiedName)  (\(service.file):\(target.mark.line))\n"
            if let doc = target.doc { text += "\(doc)\n" }
            text += "\n" + Printer.request(request, prefix: "")
            text += "\ntimeout   \(Terminal.format(seconds: endpoint.timeout))\n"
            text += "validate  \(endpoint.validation)\n"
            if let download = endpoint.download { text += "download  \(download)\n" }
            var samples: [String] = []
            if let s = target.sample { samples.append("sample " + describe(s)) }
            samples += target.samples.map { "\($0.name) " + describe($0.sample) }
            text += "samples   " + (samples.isEmpty ? "none" : samples.joined(separator: ", ")) + "\n"
            if !endpoint.cookies { text += "cookies   off\n" }
            if !endpoint.notes.isEmpty { text += "\n" + endpoint.notes.map { $0 + "\n" }.joined() }
            return text
        }

        private func describe(_ s: Sample) -> String {
            if s.error != nil { return "(error)" }
            return "(\(s.status)\(s.delay > 0 ? ", after \(Terminal.format(seconds: s.delay))" : ""))"
        }
    }
}
