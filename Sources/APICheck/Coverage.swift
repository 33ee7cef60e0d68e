import APISupport
import APIDiagnostics
import APITargets
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `check --coverage SPEC`: which operations of an OpenAPI 3 description the run's requests
/// exercised, and which of their documented response statuses came back. A result exercises an
/// operation when a response came back to a request of its method whose URL path is the path of
/// one of the operation's servers (on any host: a staging host or a local mock counts) followed by
/// a path its template matches (`/v2` + `/pets/{id}` matches `/v2/pets/7`);
/// a documented status is seen when such a response had it (`4XX` any 4xx, `default` any status
/// the operation documents no other way).
package struct Coverage: Sendable, Equatable {
    package struct Operation: Sendable, Equatable {
        package var method: String
        package var path: String
        /// The targets (`service.target`) whose requests exercised it.
        package var targets: [String]
        /// Documented statuses as written (`200`, `4XX`, `default`), each with whether it was seen.
        package var responses: [(status: String, seen: Bool)]
        package var exercised: Bool { !targets.isEmpty }

        package static func == (a: Operation, b: Operation) -> Bool {
            a.method == b.method && a.path == b.path && a.targets == b.targets
                && a.responses.map(\.status) == b.responses.map(\.status) && a.responses.map(\.seen) == b.responses.map(\.seen)
        }
    }

    /// The description as named on the command line.
    package var spec: String
    package var operations: [Operation]

    package var exercised: Int { operations.filter(\.exercised).count }
    package var responses: Int { operations.reduce(0) { $0 + $1.responses.count } }
    package var responsesSeen: Int { operations.reduce(0) { $0 + $1.responses.filter(\.seen).count } }
    /// Exercised operations, percent of all (100 for a description without operations).
    package var percent: Double { operations.isEmpty ? 100 : Double(exercised) * 100 / Double(operations.count) }
    package var responsePercent: Double { responses == 0 ? 100 : Double(responsesSeen) * 100 / Double(responses) }

    /// Reads the description (OpenAPI 3.x, YAML or JSON, `$ref`s inside its folder): exit 2 when
    /// it cannot be read or is no OpenAPI 3 description.
    package static func load(_ spec: String) throws(APIError) -> [OpenAPIContract.Operation] {
        let folder = Path.parent(spec).isEmpty ? "." : Path.parent(spec)
        switch OpenAPIContract.document(Path.lastComponent(spec), folder: folder) {
        case .failure(let error):
            throw .invalid(Diagnostic(file: spec, mark: nil, message: "--coverage: " + error.message,
                                      hint: error.message.contains("Swagger") ? "import openapi converts it: pass the converted copy" : nil))
        case .success(let doc):
            guard case .string(let version)? = doc.value["openapi"], version.hasPrefix("3.") else {
                throw .invalid(Diagnostic(file: spec, mark: nil, message: "--coverage: \(spec) is no OpenAPI 3 description (no openapi: 3.x)"))
            }
            return OpenAPIContract.operations(doc, folder: folder)
        }
    }

    /// The coverage of `operations` by `results` (only those that got a response count).
    package init(spec: String, operations: [OpenAPIContract.Operation], results: [CheckResult]) {
        self.spec = spec
        var out = operations.map { Operation(method: $0.method, path: $0.path, targets: [], responses: $0.statuses.map { ($0 == "DEFAULT" ? "default" : $0, false) }) }
        for r in results {
            guard let request = r.request, let status = r.status, let url = URLParts(request.url) else { continue }
            for (i, op) in operations.enumerated() where op.method == request.method.uppercased() {
                guard op.servers.contains(where: { Self.matches(url, server: $0, template: op.path) }) else { continue }
                let name = r.service + "." + r.target
                if !out[i].targets.contains(name) { out[i].targets.append(name) }
                let documented = out[i].responses.map { $0.status.uppercased() }
                let hit = documented.firstIndex(of: String(status))
                    ?? documented.firstIndex(of: "\(status / 100)XX")
                    ?? documented.firstIndex(of: "DEFAULT")
                if let hit { out[i].responses[hit].seen = true }
            }
        }
        self.operations = out
    }

    /// A request URL's origin (scheme and authority, lower-cased) and its path, percent-decoded.
    struct URLParts {
        var origin: String
        var path: String

        init?(_ url: String) {
            guard let scheme = url.firstRange(of: "://") else { return nil }
            let rest = url[scheme.upperBound...]
            let slash = rest.firstIndex(of: "/") ?? rest.endIndex
            origin = (url[..<scheme.upperBound] + rest[..<slash]).lowercased()
            var path = String(rest[slash...])
            if let q = path.firstIndex(where: { $0 == "?" || $0 == "#" }) { path = String(path[..<q]) }
            self.path = path.isEmpty ? "/" : path
        }
    }

    /// Whether `url`'s path is `server`'s (an absolute URL's path, or a path such as `/v1`)
    /// followed by a path `template` matches. The host is not compared: the same API answers on
    /// staging, on a local mock, under `--base-url`.
    static func matches(_ url: URLParts, server: String, template: String) -> Bool {
        var prefix = server
        if server.contains("://") {
            guard let s = URLParts(server + "/") else { return false }
            prefix = s.path
        }
        while prefix.hasSuffix("/") { prefix.removeLast() }
        guard url.path.hasPrefix(prefix) else { return false }
        let rest = String(url.path.dropFirst(prefix.count))
        return matches(path: rest.isEmpty ? "/" : rest, template: template)
    }

    /// `/pets/7` against `/pets/{id}`: segment by segment, a `{name}` standing for one or more
    /// characters of its segment; segments compared percent-decoded.
    static func matches(path: String, template: String) -> Bool {
        let have = path.split(separator: "/", omittingEmptySubsequences: false).map { String($0).removingPercentEscapes() ?? String($0) }
        let want = template.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        guard have.count == want.count else { return false }
        return zip(have, want).allSatisfy { segment($0[...], $1[...]) }
    }

    /// One segment: literal text, and `{…}` matching one or more characters.
    private static func segment(_ text: Substring, _ pattern: Substring) -> Bool {
        guard let open = pattern.firstIndex(of: "{"), let close = pattern[open...].firstIndex(of: "}") else { return text == pattern }
        let literal = pattern[..<open]
        guard text.hasPrefix(literal) else { return false }
        let after = pattern[pattern.index(after: close)...]
        var rest = text.dropFirst(literal.count)
        guard !rest.isEmpty else { return false }
        rest = rest.dropFirst()  // at least one character
        while true {
            if segment(rest, after) { return true }
            guard !rest.isEmpty else { return false }
            rest = rest.dropFirst()
        }
    }

    /// What `check` prints after its summary.
    package var text: String {
        var out = "coverage of \(spec): \(exercised) of \(operations.count) operations (\(Self.percentText(percent))), "
            + "\(responsesSeen) of \(responses) documented responses (\(Self.percentText(responsePercent)))\n"
        for op in operations {
            let mark = op.exercised ? "  exercised " : "  missing   "
            let statuses = op.responses.map { $0.status + ($0.seen ? " seen" : " not seen") }.joined(separator: ", ")
            out += mark + " \(op.method) \(op.path)" + (op.exercised ? "  by " + op.targets.joined(separator: ", ") : "")
                + (statuses.isEmpty ? "" : "  [\(statuses)]") + "\n"
        }
        return out
    }

    package static func percentText(_ p: Double) -> String { Text.fixed(p, 1) + "%" }

    /// What is wrong with `--coverage-min` (nil: nothing): it needs `--coverage`, and is a percent.
    package static func minimumProblem(spec: String?, minimum: Double?) -> String? {
        guard let minimum else { return nil }
        if spec == nil { return "--coverage-min needs --coverage SPEC" }
        if !minimum.isFinite || !(0...100).contains(minimum) { return "--coverage-min takes a percent from 0 to 100, got \(minimum)" }
        return nil
    }

    /// The message when fewer than `minimum` percent of the operations were exercised, else nil.
    package func shortfall(_ minimum: Double?) -> String? {
        guard let minimum, percent < minimum else { return nil }
        return "coverage \(Self.percentText(percent)) of \(spec)'s operations is below --coverage-min \(Text.number(minimum))%"
    }
}
