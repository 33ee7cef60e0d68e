import APISupport
import APIYAML
import APIJSON
import APISchema
import APISecrets
import APITargets
import APITransport
import APIVerdict
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A live response made fit to be a sample: no credentials, no volatile headers, secrets turned
/// back into `${VAR}` references, masked JSON paths replaced, and a body that is JSON (written as
/// `json:`), text (`body:`) or too large or binary for the target file (`file:`, a side file).
package struct RecordedSample: Sendable {
    package enum Body: Sendable, Equatable {
        /// Numbers as sent, members in the order received.
        case json(Value)
        case text(String)
        /// Bytes for a side file, and the file name's extension (`json`, `txt`, `bin`).
        case file(Data, ext: String)
        /// A `text/event-stream`: its events, each with the seconds before it.
        case events([Event])
        /// A WebSocket conversation: the text messages received, each with the seconds before it.
        case messages([Event])
    }

    package struct Event: Sendable, Equatable {
        package var event: String?
        package var data: String
        package var id: String?
        package var delay: Double
    }

    package var status: Int
    package var headers: [HeaderField]
    package var body: Body?
    /// `--mask` paths, kept in the sample (`masked:`) so drift does not compare them.
    package var masked: [String]

    /// What `record` leaves out unless `--keep-header` names it: values that change on every call.
    package static let volatileHeaders: Set<String> = [
        "date", "etag", "last-modified", "expires", "age", "server", "via", "x-cache", "x-served-by", "x-timer",
        "content-length", "transfer-encoding", "connection", "keep-alive", "alt-svc", "cf-ray", "nel", "report-to",
        "x-request-id", "request-id", "x-correlation-id", "traceparent", "tracestate", "x-amzn-requestid",
        "x-amz-request-id", "x-amz-id-2", "x-github-request-id", "x-runtime", "strict-transport-security",
    ]

    /// The placeholder a masked value becomes.
    package static let maskText = "<masked>"

    /// Bodies larger than this go to a side file.
    package static let inlineLimit = 4096

    package struct Options: Sendable {
        /// `--mask`: JSONPaths (`$.token`, `$.items[*].id`) whose values are replaced.
        package var masks: [String] = []
        /// `--keep-header`: volatile headers kept anyway (never a credential header).
        package var keepHeaders: [String] = []
        /// Secret `${VAR}`s by value (longest first): a value met in a header or the body is written as the
        /// reference; a value with no name (a credential header sent) is written as `••••`.
        package var secrets: [(name: String, value: String)] = []

        /// `credentials`: the values of the credential headers the request sent. One is hidden whole
        /// (`••••`) unless a named secret is in it: then only that part is, as `${NAME:-••••}`
        /// (`Bearer ${API_TOKEN:-••••}`), so an echo of it still meets the target's expectations
        /// when the variable is set.
        package init(masks: [String] = [], keepHeaders: [String] = [], secrets: [(name: String, value: String)] = [],
                    credentials: [String] = []) {
            self.masks = masks
            self.keepHeaders = keepHeaders
            let named = secrets.filter { $0.value.count >= Redactor.shortestSecret }
            let whole = credentials.filter { credential in !named.contains { credential.contains($0.value) } }
                .map { (name: "", value: $0) }
            self.secrets = (named + whole).filter { $0.value.count >= Redactor.shortestSecret }
                .sorted { $0.value.count > $1.value.count }
        }

    }

    /// `delays`: the seconds before each event of a `text/event-stream` body (`EventRecorder`).
    package init(_ response: Response, options: Options, delays: [Double] = []) {
        status = response.status
        masked = options.masks
        let keep = Set(options.keepHeaders.map { $0.lowercased() })
        headers = response.headers.compactMap { h -> HeaderField? in
            let name = h.name.lowercased()
            if Redactor.credentialHeaders.contains(name) { return nil }
            if (Self.volatileHeaders.contains(name) || Self.isVolatile(name)) && !keep.contains(name) { return nil }
            if name == "content-encoding" { return nil }  // the body is recorded decoded
            return HeaderField(h.name, Self.hideSecrets(h.value, options.secrets))
        }
        if let messages = response.messages {
            // A plain GET of the mock's route answers 200 with the messages' text; an upgrade gets the messages.
            status = 200
            var previous = 0.0
            body = .messages(messages.map { m in
                defer { previous = m.at }
                return Event(event: nil, data: Self.hideSecrets(m.text, options.secrets), id: nil,
                             delay: (max(0, m.at - previous) * 1000).rounded() / 1000)
            })
            retry = nil
            return
        }
        body = SSEEvent.isEventStream(response.headers) ? Self.events(response.body, delays, options)
            : Self.body(response, options)
        retry = SSEEvent.isEventStream(response.headers) ? SSEEvent.retry(in: response.body) : nil
    }

    /// The `retry:` the stream asked for, written on the first event.
    package var retry: Int?

    private static func events(_ body: Data, _ delays: [Double], _ options: Options) -> Body {
        var previousID = ""
        let events = SSEEvent.events(in: body).enumerated().map { i, e -> Event in
            defer { previousID = e.lastEventID }
            // data is a template in a sample (escaped); the event name and id are plain text
            return Event(event: e.type == "message" ? nil : maskSecrets(e.type, options.secrets),
                         data: hideSecrets(e.data, options.secrets),
                         id: e.lastEventID == previousID ? nil : maskSecrets(e.lastEventID, options.secrets),
                         delay: i < delays.count ? (delays[i] * 1000).rounded() / 1000 : 0)
        }
        return .events(events)
    }

    static func isVolatile(_ name: String) -> Bool {
        name.contains("ratelimit") || name.contains("request-id") || name.contains("trace-id")
    }

    private static func body(_ response: Response, _ options: Options) -> Body? {
        guard !response.body.isEmpty else { return nil }
        let type = response.headers.value(of: "Content-Type").map(Drift.mediaType) ?? ""
        guard let text = String(validating: response.body, as: UTF8.self) else {
            return .file(response.body, ext: "bin")
        }
        if Drift.isJSON(type) || type.isEmpty, var json = JSONParser.parseValue([UInt8](response.body)) {
            json = mask(json, "$", Set(options.masks.map(Drift.normalized)))
            let inline = hideSecrets(json, options.secrets)
            let rendered = inline.jsonText
            if rendered.utf8.count > inlineLimit || hasPlaceholder(rendered) {
                return .file(Data(maskSecrets(json.jsonText, options.secrets).utf8), ext: "json")
            }
            return .json(inline)
        }
        let inline = hideSecrets(text, options.secrets)
        if inline.utf8.count > inlineLimit || hasPlaceholder(inline) {
            return .file(Data(maskSecrets(text, options.secrets).utf8), ext: type.hasSuffix("html") ? "html" : "txt")
        }
        return .text(inline)
    }

    /// A side file is not expanded: secrets in it become `••••`.
    static func maskSecrets(_ text: String, _ secrets: [(name: String, value: String)]) -> String {
        var out = text
        for (_, value) in secrets where out.contains(value) { out = out.replacing(value, with: Redactor.mask) }
        return out
    }

    /// Whether expanding `text` as a sample would change it: a `{name}` placeholder in it.
    static func hasPlaceholder(_ text: String) -> Bool {
        !Template(text, mark: Mark(line: 0, column: 0)).placeholders.isEmpty
    }


    static func mask(_ value: Value, _ path: String, _ masks: Set<String>) -> Value {
        if masks.contains(path) { return .json(maskText) }
        switch value {
        case .object(let members):
            return .object(members.map { .init(key: $0.key, value: mask($0.value, path + Drift.segment($0.key), masks)) })
        case .array(let items):
            return .array(items.map { mask($0, path + "[*]", masks) })
        default:
            return value
        }
    }

    static func hideSecrets(_ value: Value, _ secrets: [(name: String, value: String)]) -> Value {
        switch value {
        case .string(let s): return .json(hideSecrets(s.text, secrets))
        case .object(let members): return .object(members.map { .init(key: $0.key, value: hideSecrets($0.value, secrets)) })
        case .array(let items): return .array(items.map { hideSecrets($0, secrets) })
        default: return value
        }
    }

    /// Every secret value in `text` becomes `${NAME:-••••}`: the stub shows the real value when the
    /// variable is set, the mask when not; the value itself is never written.
    /// A `${` already in the text is written `$${` (a literal, not a variable).
    static func hideSecrets(_ text: String, _ secrets: [(name: String, value: String)]) -> String {
        // What the server sent is literal text: `${` and `{name}` escaped (a `{id}` in a Link header
        // or Content-Disposition used to become a placeholder that validate rejected).
        var out = Template.escaping(text)
        for (name, value) in secrets where out.contains(value) {
            out = out.replacing(value, with: name.isEmpty ? Redactor.mask : "${\(name):-\(Redactor.mask)}")
        }
        return out
    }
}
