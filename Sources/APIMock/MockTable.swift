import APISupport
import APIJSON
import APIDiagnostics
import APISchema
import APITargets
import APIEndpoint
import APITransport
import APIVerdict
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import NIOCore
import NIOHTTP1

/// The routes `apicli mock` serves, built once from the selected targets through the workspace
/// (the one factory) and swapped whole on reload. Answering a request needs no socket: the server
/// hands in method, target-form URI and the sample header, and writes back what comes out.
package struct MockTable: Sendable {
    struct Entry: Sendable {
        var route: TargetRoute
        var bindings: Bindings
        /// Responses rendered once, by sample name ("" for `sample:`): for a route without captures
        /// a text or JSON sample always renders the same (a `file:` body is read each time).
        var rendered: [String: Response] = [:]
        /// The same responses as the server writes them (by the same names), made once: a request
        /// for one of them costs no header list, no body copy. None for a response whose header
        /// cannot be sent (the server answers 500 for it each time).
        var wire: [String: Wire] = [:]
    }

    /// A rendered response ready for the wire: the head's fields as `MockConnection` sends them
    /// (with Content-Length), the body's bytes, and the whole answer to a kept-alive HTTP/1.1 GET
    /// as written (head and body in one buffer, written as it is).
    struct Wire: Sendable {
        var status: HTTPResponseStatus
        var fields: [(name: String, value: String)]
        var body: ByteBuffer
        var whole: ByteBuffer

        init?(_ response: Response) {
            guard response.headers.allSatisfy(MockConnection.isSendable) else { return nil }
            status = HTTPResponseStatus(statusCode: response.status)
            fields = MockConnection.fields(response.headers, bodyCount: response.body.count)
            body = ByteBuffer(bytes: response.body)
            whole = MockConnection.render(status: status, fields: fields, body: body, minor: 1, keepAlive: true)
        }
    }

    /// Most specific first.
    private(set) var entries: [Entry]
    let workspace: Workspace
    /// `mock --validate`: a request whose JSON body breaks its operation's request schema
    /// (`expect: schema: { openapi:, operation: }`) gets 400 and the violations.
    package var validateRequests = false
    /// Selected targets that have no sample: not served.
    package private(set) var withoutSamples: [String] = []

    /// The entries' routes, in the same order (`entries.map(\.route)`, kept: matched for every request).
    package private(set) var routes: [TargetRoute] = []
    /// Whether some route is a GraphQL target's (its requests' bodies are kept to pick the operation).
    private(set) var servesGraphQL = false
    /// By entry: whether it is a GraphQL target's (one of several on an endpoint, picked by the operation).
    private var graphql: [Bool] = []
    /// By entry: the answer to a request that names no sample, made once when it is a rendered
    /// response. Kept beside the entries, not in them: reading an entry copies its route, service
    /// and target, and the usual request needs none of them.
    private var ready: [Answer?] = []

    /// Routes for `selected`. Two routes that answer the same requests are an error naming both,
    /// unless `prefer` (`--service`) names the service of exactly one of them.
    /// The mock sends nothing: a `${VAR}` that only feeds requests need not be set (`Workspace.offline`).
    package init(workspace: Workspace, selected: [(Service, Target)], prefer: [String] = []) throws(APIError) {
        let workspace = workspace.offline()
        self.workspace = workspace
        var entries: [Entry] = []
        var problems: [Diagnostic] = []
        for (service, target) in selected {
            guard !target.allSamples.isEmpty else {
                withoutSamples.append(target.qualifiedName)
                continue
            }
            do throws(APIError) {
                let (route, bindings) = try workspace.route(for: target, in: service)
                var entry = Entry(route: route, bindings: bindings)
                if !entry.route.hasCaptures {
                    for (name, sample) in target.allSamples where sample.error == nil {
                        if case .file? = sample.body { continue }
                        let stub = workspace.stub(sample, of: target, in: service, bindings: bindings, captures: [:])
                        if let response = try? stub.response() {
                            entry.rendered[name ?? ""] = response
                            entry.wire[name ?? ""] = Wire(response)
                        }
                    }
                }
                entries.append(entry)
            } catch {
                if case .invalidInput(let d) = error { problems += d } else { throw error }
            }
        }
        self.entries = TargetRoute.mostSpecificFirst(try Self.resolveConflicts(entries, prefer: prefer, problems: problems), \.route)
        routes = self.entries.map(\.route)
        graphql = self.entries.map { Self.graphqlName($0.route.target) != nil }
        servesGraphQL = graphql.contains(true)
        ready = self.entries.map { entry in
            let answer = self.answer(entry, captures: [:], sample: nil)
            return answer.wire != nil ? answer : nil
        }
    }

    private static func resolveConflicts(_ entries: [Entry], prefer: [String], problems: [Diagnostic]) throws(APIError) -> [Entry] {
        let (dropped, conflicts) = TargetRoute.conflicts(entries.map(\.route), prefer: prefer, operations: true) { a, b in
            a.service.name == b.service.name
                ? "serve one of them (name targets on the command line), or change a path"
                : "pick the service that answers with --service \(a.service.name) or --service \(b.service.name)"
        }
        if !(problems + conflicts).isEmpty { throw .invalidInput(problems + conflicts) }
        return entries.indices.filter { !dropped.contains($0) }.map { entries[$0] }
    }

    // MARK: Answering

    /// What the server does with one request.
    package enum Reply: Sendable {
        /// Status, headers in declared order, body; sent after `delay` seconds.
        case response(status: Int, headers: [HeaderField], body: Data, delay: Double)
        /// An `error:` sample: the connection is closed without a response after `delay`.
        case close(delay: Double)
        /// An `events:` sample: the head after `delay`, then each event after its own delay,
        /// chunked and flushed one by one (`text/event-stream`).
        case events(status: Int, headers: [HeaderField], events: [(delay: Double, bytes: Data)], delay: Double)
    }

    package struct Answer: Sendable {
        package var reply: Reply
        /// `service.target`, nil when no route matched.
        package var target: String?
        /// `sample` or the name of the entry of `samples:`; nil when none was used.
        package var sample: String?
        /// `reply` made ready for the wire once, when it is a rendered response.
        var wire: Wire? = nil
    }

    /// The header and the query parameter that choose a named sample.
    package static let sampleHeader = "X-Apicli-Sample"
    package static let sampleParameter = "apicli-sample"

    /// The answer to `method uri` (origin form: path and query). `HEAD` is answered by a `GET`
    /// route when no `HEAD` route matches (the server sends no body).
    package func answer(method: String, uri: String, sampleHeader: String? = nil, body: Data = Data(),
                        headers: [(name: String, value: String)] = []) -> Answer {
        let (path, query) = Self.split(uri)
        let parts = Self.segments(path)
        let chosen = sampleHeader.flatMap { $0.isEmpty ? nil : $0 } ?? Self.queryValue(Self.sampleParameter, in: query)
        if let (index, captures) = TargetRoute.firstMatch(routes, method: method, parts: parts) {
            if graphql[index] {
                switch graphqlEntry(from: index, parts: parts, body: body, query: query) {
                case .entry(let picked): return answer(picked, captures: captures, query: query, body: body, headers: headers, sample: chosen)
                case .refused(let refused): return refused
                }
            }
            if chosen == nil, !validateRequests, let ready = ready[index] { return ready }
            return answer(entries[index], captures: captures, query: query, body: body, headers: headers, sample: chosen)
        }
        let allowed = entries.filter { $0.route.match(parts) != nil }.map(\.route.method)
        if !allowed.isEmpty {
            // RFC 9110 §15.5.6: the path is served, the method is not
            let allow = (allowed.contains("GET") && !allowed.contains("HEAD") ? allowed + ["HEAD"] : allowed)
                .reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }.joined(separator: ", ")
            let text = JSONValue.object([("error", .string("\(method) is not served at \(path); it allows \(allow)"))]).jsonText + "\n"
            return Answer(reply: .response(status: 405, headers: [HeaderField("Content-Type", "application/json"), HeaderField("Allow", allow)],
                                           body: Data(text.utf8), delay: 0), target: nil, sample: nil)
        }
        return Answer(reply: notFound(method: method, path: path, parts: parts), target: nil, sample: nil)
    }

    /// The answer of `entry`'s route: refused when requests are validated and this one breaks its
    /// schema, else its sample's (`name`, else the first).
    private func answer(_ entry: Entry, captures: [String: String], query: Substring, body: Data,
                        headers: [(name: String, value: String)], sample name: String?) -> Answer {
        if validateRequests, let refused = Self.refused(body, query: query, captures: captures, headers: headers,
                                                        by: entry.route.target) {
            return refused
        }
        return answer(entry, captures: captures, sample: name)
    }

    private func answer(_ entry: Entry, captures: [String: String], sample name: String?) -> Answer {
        let target = entry.route.target
        let label = target.qualifiedName
        let pick: (String?, Sample)
        if let name {
            guard let found = target.samples.first(where: { $0.name == name }) else {
                let names = target.samples.map(\.name)
                return Answer(reply: Self.json(400, [("error", .string("\(label) has no sample named '\(name)'")),
                                                     ("samples", .array(names.map { .string($0) }))]),
                              target: label, sample: name)
            }
            pick = (found.name, found.sample)
        } else if let sample = target.sample {
            pick = (nil, sample)
        } else {
            pick = (target.samples[0].name, target.samples[0].sample)
        }
        let shown = pick.0 ?? "sample"
        if pick.1.error != nil { return Answer(reply: .close(delay: pick.1.delay), target: label, sample: shown) }
        if pick.1.events != nil {
            let stub = workspace.stub(pick.1, of: target, in: entry.route.service, bindings: entry.bindings, captures: captures)
            do throws(APIError) {
                let head = try stub.response()
                return Answer(reply: .events(status: head.status, headers: head.headers, events: try stub.eventChunks(),
                                             delay: pick.1.delay),
                              target: label, sample: shown)
            } catch {
                return Answer(reply: Self.json(500, [("error", .string(error.summary))]), target: label, sample: shown)
            }
        }
        if let response = entry.rendered[pick.0 ?? ""] {
            return Answer(reply: .response(status: response.status, headers: response.headers, body: response.body,
                                           delay: pick.1.delay),
                          target: label, sample: shown, wire: entry.wire[pick.0 ?? ""])
        }
        let stub = workspace.stub(pick.1, of: target, in: entry.route.service, bindings: entry.bindings, captures: captures)
        do throws(APIError) {
            let response = try stub.response()
            return Answer(reply: .response(status: response.status, headers: response.headers, body: response.body,
                                           delay: pick.1.delay),
                          target: label, sample: shown)
        } catch {
            var message = "\(label): the sample cannot be rendered"
            if case .invalidInput(let d) = error, let first = d.first { message = first.message }
            return Answer(reply: Self.json(500, [("error", .string(message))]), target: label, sample: shown)
        }
    }

    /// 404 with the routes closest to what was asked, nearest first.
    private func notFound(method: String, path: String, parts: [Substring]) -> Reply {
        let asked = "\(method) \(path)"
        let compared = String(asked.prefix(TargetRoute.comparedLength))
        let closest: [JSONValue] = TargetRoute.closest(to: method, path: path, parts: parts, among: routes).map { route in
            .object([("route", .string(route.label)), ("target", .string(route.target.qualifiedName))])
        }
        return Self.json(404, [("error", .string("no route for \(compared)\(asked.count > compared.count ? "…" : "")")),
                               ("closest", .array(closest))])
    }

    static func json(_ status: Int, _ members: [(String, JSONValue)], contentType: String = "application/json") -> Reply {
        let text = JSONValue.object(members.map { (key: $0.0, value: $0.1) }).jsonText + "\n"
        return .response(status: status, headers: [HeaderField("Content-Type", contentType)],
                         body: Data(text.utf8), delay: 0)
    }

    /// The path and the query of a request target: origin-form (`/hello?x=1`), or absolute-form
    /// (`http://host/hello?x=1`, which RFC 9112 §3.2.2 says a server must accept: its scheme and
    /// authority are left out; none of them names a path: `/`).
    static func split(_ target: String) -> (path: String, query: Substring) {
        // origin-form, ASCII (the usual request): split at the first `?` by its byte
        if target.utf8.first == UInt8(ascii: "/"), isASCII(target) {
            guard let q = target.utf8.firstIndex(of: UInt8(ascii: "?")) else { return (target, "") }
            return (String(target[..<q]), target[target.index(after: q)...])
        }
        var uri = target
        if let colon = uri.firstIndex(of: ":"), ["http", "https"].contains(uri[..<colon].lowercased()),
           uri[colon...].hasPrefix("://") {
            let authority = uri[uri.index(colon, offsetBy: 3)...]
            let rest = authority[(authority.firstIndex { $0 == "/" || $0 == "?" } ?? authority.endIndex)...]
            uri = rest.hasPrefix("/") ? String(rest) : "/" + rest
        }
        guard let q = uri.firstIndex(of: "?") else { return (uri, "") }
        return (String(uri[..<q]), uri[uri.index(after: q)...])
    }

    /// Whether `text` is all ASCII, read from its bytes in place (a request's path, for every request).
    static func isASCII(_ text: String) -> Bool {
        text.utf8.withContiguousStorageIfAvailable { $0.allSatisfy { $0 < 0x80 } } ?? text.utf8.allSatisfy { $0 < 0x80 }
    }

    /// The path's segments, empty ones left out (`/a//b/` is `a`, `b`).
    static func segments(_ path: String) -> [Substring] {
        // ASCII: split by the byte (no `/` can be part of a longer character there)
        guard isASCII(path) else { return path.split(separator: "/", omittingEmptySubsequences: true) }
        var parts: [Substring] = []
        let bytes = path.utf8
        var start = bytes.startIndex, at = start
        while at != bytes.endIndex {
            if bytes[at] == UInt8(ascii: "/") {
                if at != start { parts.append(path[start..<at]) }
                start = bytes.index(after: at)
            }
            at = bytes.index(after: at)
        }
        if start != bytes.endIndex { parts.append(path[start...]) }
        return parts
    }

    static func queryValue(_ name: String, in query: Substring) -> String? {
        for pair in query.split(separator: "&") {
            let kv = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            if kv[0] == name { return kv.count > 1 ? (String(kv[1]).removingPercentEscapes() ?? String(kv[1])) : "" }
        }
        return nil
    }

    /// The header that says why the mock refused a request (ASCII, at most `reasonLength` characters),
    /// whatever body the operation's documented schema made it send.
    package static let refusalHeader = "X-Apicli-Refusal"
    static let reasonLength = 500

    /// The refusal's body: the mock's own (`error`, `violations`) when the operation documents no
    /// body schema for the refusal's status or that schema accepts it; else the sample of that
    /// schema, with the reason in its first string member (`error`, `message`, `detail`, `title`,
    /// `description`) the schema still accepts there.
    static func refusalBody(_ own: JSONValue, error: String, schema: SchemaExpectation) -> JSONValue {
        let options = SchemaOptions(assertFormats: schema.assertFormats, direction: .response)
        guard let documented = schema.schema(for: schema.refusal.status), !documented.isValid(own, options: options),
              let text = schema.refusal.sample, let sample = JSONValue.parse(Data(text.utf8)),
              documented.isValid(sample, options: options) else { return own }
        guard case .object(let members) = sample else { return sample }
        let keys = ["error", "message", "detail", "title", "description"]
        for key in keys.filter({ k in members.contains { $0.key == k } }) + keys {  // a member the sample has first
            var changed = members
            if let i = changed.firstIndex(where: { $0.key == key }) { changed[i].value = .string(error) } else { changed.append((key, .string(error))) }
            if documented.isValid(.object(changed), options: options) { return .object(changed) }
        }
        return sample
    }

    /// 400 with every violation (what Prism answers) when `body` breaks the target's request
    /// schema or a query or path parameter breaks its own (or a required one is missing); a
    /// parameter's violations name it (`"in": "query", "parameter": "limit"`).
    static func refused(_ body: Data, query: Substring = "", captures: [String: String] = [:],
                        headers: [(name: String, value: String)] = [], by target: Target) -> Answer? {
        guard let schema = target.expect?.schema else { return nil }
        func entry(_ v: SchemaViolation, _ p: RequestParameter?) -> JSONValue {
            var members: [(key: String, value: JSONValue)] = []
            if let p { members += [("in", .string(p.place.rawValue)), ("parameter", .string(p.name))] }
            let message = p.map { "\($0.place.rawValue) parameter \($0.name): \(v.description)" } ?? v.description
            return .object(members + [("instancePath", .string(v.instancePath)), ("schemaPath", .string(v.schemaPath)),
                                      ("keyword", .string(v.keyword)), ("expected", .string(v.expected)), ("got", .string(v.got)),
                                      ("message", .string(message))])
        }
        let parameters = schema.parameterViolations(RequestParameter.Request(query: query, captures: captures, headers: headers))
        let list = parameters.flatMap { p in p.violations.map { entry($0, p.parameter) } }
            + schema.requestViolations(body, contentType: headers.last { $0.name.lowercased() == "content-type" }?.value).map { entry($0, nil) }
        guard !list.isEmpty else { return nil }
        let bodyBroken = list.count > parameters.reduce(0) { $0 + $1.violations.count }
        let named = parameters.map { "\($0.parameter.place.rawValue) parameter \($0.parameter.name)" } + (bodyBroken ? ["the body"] : [])
        var error = parameters.isEmpty ? "the request body breaks the request schema of \(target.qualifiedName)"
            : "the request breaks the request schema of \(target.qualifiedName): " + named.joined(separator: ", ")
        let refusal = schema.refusal
        if !refusal.documented { error += " (the operation documents no client-error response: 400 is the mock's own)" }
        let body = refusalBody(.object([("error", .string(error)), ("violations", .array(list))]), error: error, schema: schema)
        let reason = String(String(error.unicodeScalars.map { $0.isASCII && $0.value >= 0x20 && $0.value < 0x7F ? Character($0) : "?" })
            .prefix(Self.reasonLength))
        let reply = Reply.response(status: refusal.status, headers: [HeaderField("Content-Type", refusal.contentType),
                                                                     HeaderField(Self.refusalHeader, reason)],
                                   body: Data((body.jsonText + "\n").utf8), delay: 0)
        return Answer(reply: reply, target: target.qualifiedName, sample: nil)
    }
}
