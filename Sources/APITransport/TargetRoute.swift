import APISupport
import APIDiagnostics
import APITargets
import APIEndpoint
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One target as requests are matched to it: its method and the path a request must have, the
/// service's baseURL path followed by the target's path (`/v1` + `/users/{name}`), split into
/// segments. `apicli mock` routes with it, and so does the library's stubbing URLProtocol.
package struct TargetRoute: Sendable {
    /// A piece of the path template.
    package enum Segment: Sendable, Equatable {
        case literal(String)
        /// `prefix{name}suffix` in one segment (usually just `{name}`).
        case capture(name: String, prefix: String, suffix: String)
        /// `{+name}` as the last segment: the rest of the path, slashes included.
        case rest(name: String)
    }

    package var service: Service
    package var target: Target
    package var method: String
    /// The service's baseURL path (`/v1`, or "").
    package var basePath: String
    /// `/v1/users/{name}`, as shown in logs and the 404's list.
    package var template: String
    package var segments: [Segment]

    /// `GET /v1/users/{name}`.
    package var label: String { "\(method) \(template)" }

    package init(service: Service, target: Target, basePath: String, path: String) {
        self.service = service
        self.target = target
        method = target.method
        let base = basePath.split(separator: "/").map(String.init)
        let own = path.split(separator: "/").map(String.init)
        let parts = base + own
        self.basePath = base.isEmpty ? "" : "/" + base.joined(separator: "/")
        template = "/" + parts.joined(separator: "/")
        segments = parts.enumerated().map { i, part in Self.segment(part, last: i == parts.count - 1) }
    }

    static func segment(_ text: String, last: Bool) -> Segment {
        guard let open = text.firstIndex(of: "{"), let (name, reserved, end) = Template.placeholder(in: text, at: open) else {
            return .literal(text.removingPercentEscapes() ?? text)
        }
        if reserved && last && open == text.startIndex && end == text.endIndex { return .rest(name: name) }
        return .capture(name: name, prefix: String(text[..<open]), suffix: String(text[end...]))
    }

    /// Whether a request's path segment (not yet decoded) is the literal `text`: compared as it
    /// is when it has no `%` escape (the usual request), else decoded first.
    static func segment(_ part: Substring, is text: String) -> Bool {
        if !part.utf8.contains(UInt8(ascii: "%")) { return part == text }
        return (String(part).removingPercentEscapes() ?? String(part)) == text
    }

    /// The captured values when `path` (split, not yet decoded) matches, else nil.
    package func match(_ parts: [Substring]) -> [String: String]? {
        Self.match(segments, parts)
    }

    /// `match` by the route's segments alone: `firstMatch` reads them where the route lies.
    static func match(_ segments: [Segment], _ parts: [Substring]) -> [String: String]? {
        var captures: [String: String] = [:]
        for (i, segment) in segments.enumerated() {
            switch segment {
            case .rest(let name):
                guard i < parts.count else { return nil }
                captures[name] = parts[i...].map { String($0).removingPercentEscapes() ?? String($0) }.joined(separator: "/")
                return captures
            case .literal(let text):
                guard i < parts.count, Self.segment(parts[i], is: text) else { return nil }
            case .capture(let name, let prefix, let suffix):
                guard i < parts.count else { return nil }
                let raw = String(parts[i]).removingPercentEscapes() ?? String(parts[i])
                guard raw.count > prefix.count + suffix.count, raw.hasPrefix(prefix), raw.hasSuffix(suffix) else { return nil }
                captures[name] = String(raw.dropFirst(prefix.count).dropLast(suffix.count))
            }
        }
        return parts.count == segments.count ? captures : nil
    }

    /// `METHOD /path` with each capture replaced by the request's segment at its place: what a
    /// request is compared with to find the closest routes (`/users/octocat` is near `/users/{name}`).
    package func filled(with parts: [Substring]) -> String {
        let path = segments.enumerated().map { i, segment -> String in
            switch segment {
            case .literal(let text): return text
            case .capture(let name, let prefix, let suffix):
                return i < parts.count ? String(parts[i]) : prefix + "{\(name)}" + suffix
            case .rest(let name): return i < parts.count ? parts[i...].joined(separator: "/") : "{+\(name)}"
            }
        }
        return "\(method) /" + path.joined(separator: "/")
    }

    /// The most characters of a request line compared with each route to find the closest ones:
    /// the distance costs their product (and `mock` runs it on the event loop).
    package static let comparedLength = 200

    /// The `count` routes nearest to `METHOD path` (`parts`: the path split, not yet decoded),
    /// nearest first: what a request that matches none is told.
    package static func closest(to method: String, path: String, parts: [Substring], among routes: [TargetRoute],
                                count: Int = 3) -> [TargetRoute] {
        let compared = String("\(method) \(path)".prefix(comparedLength))
        return routes.map { ($0, Suggestions.distance(compared, String($0.filled(with: parts).prefix(comparedLength)))) }
            .sorted { $0.1 < $1.1 }.prefix(count).map(\.0)
    }

    /// `items` sorted by their routes' `specificity`, the most specific first, else in their order:
    /// the order requests are matched in.
    package static func mostSpecificFirst<Item>(_ items: [Item], _ route: (Item) -> TargetRoute) -> [Item] {
        items.enumerated().sorted { a, b in
            let (x, y) = (route(a.element).specificity, route(b.element).specificity)
            return x != y ? x.lexicographicallyPrecedes(y) == false : a.offset < b.offset
        }.map(\.element)
    }

    /// Literal segments count most, then captures with fixed text around them: the most specific
    /// route wins (`/users/me` before `/users/{name}`).
    package var specificity: [Int] {
        segments.map { segment in
            switch segment {
            case .literal: return 2
            case .capture: return 1
            case .rest: return 0
            }
        }
    }

    /// Whether the path captures anything (`{name}`, `{+rest}`).
    package var hasCaptures: Bool {
        segments.contains { if case .literal = $0 { return false } else { return true } }
    }

    /// Two routes that answer exactly the same requests.
    package func sameShape(as other: TargetRoute) -> Bool {
        guard method == other.method, segments.count == other.segments.count else { return false }
        return zip(segments, other.segments).allSatisfy { a, b in
            switch (a, b) {
            case let (.literal(x), .literal(y)): return x == y
            case let (.capture(_, p1, s1), .capture(_, p2, s2)): return p1 == p2 && s1 == s2
            case (.rest, .rest): return true
            default: return false
            }
        }
    }
}

extension Workspace {
    /// The route requests to `target` are matched with, and the bindings its samples expand with:
    /// the base URL's path and the target's path, its `${VAR}`s expanded and its `{name}`s kept
    /// as captures.
    package func route(for target: Target, in service: Service) throws(APIError) -> (route: TargetRoute, bindings: Bindings) {
        let base = try basePath(for: target, in: service)
        let bindings = try self.bindings(for: target, in: service)
        let env = Bindings(environment: bindings.environment, secrets: bindings.secrets, providers: bindings.providers)
        let path = try target.path.map { t throws(APIError) in
            try env.expand(t, in: "the path of \(target.qualifiedName)", file: service.file, unresolved: .keep)
        } ?? ""
        return (TargetRoute(service: service, target: target, basePath: base, path: path), bindings)
    }
}

extension TargetRoute {
    /// The first of `routes` (most specific first) whose route answers `method` at `parts` (the path
    /// split, not yet decoded), with its captures. `HEAD` is answered by a `GET` route when no
    /// `HEAD` route matches (RFC 9110 §9.3.2: a HEAD gets GET's head, without the body): the rule of
    /// `apicli mock` and the library's stubs.
    /// Not generic: the mock asks it for every request from another stage, where a generic
    /// function of this package type runs unspecialized (metadata looked up for each iterator).
    package static func firstMatch(_ routes: [TargetRoute], method: String,
                                   parts: [Substring]) -> (index: Int, captures: [String: String])? {
        if let found = firstMatch(routes, exactly: method, parts: parts) { return found }
        return method == "HEAD" ? firstMatch(routes, exactly: "GET", parts: parts) : nil
    }

    /// The first of `routes` of exactly `method` that matches `parts` (`answering(method)`'s order
    /// is `firstMatch`'s, without a list made for every request).
    private static func firstMatch(_ routes: [TargetRoute], exactly method: String,
                                   parts: [Substring]) -> (index: Int, captures: [String: String])? {
        // each route borrowed where it lies, not copied (it holds its service and target)
        routes.withUnsafeBufferPointer { routes in
            for index in routes.indices where routes[index].method == method {
                if let captures = match(routes[index].segments, parts) { return (index, captures) }
            }
            return nil
        }
    }

    /// The methods of the routes that answer a request with `method`, in order: `HEAD` then `GET`
    /// for a `HEAD`, else the method itself.
    package static func answering(_ method: String) -> [String] {
        method == "HEAD" ? ["HEAD", "GET"] : [method]
    }

    /// The operation a GraphQL target sends (`""`: an anonymous one); nil for any other target.
    package static func graphqlName(_ target: Target) -> String? {
        guard case .graphql(let op)? = target.task.body else { return nil }
        return op.servedName ?? ""
    }

    /// Routes (in file order) that answer exactly the same requests as an earlier one: each pair is
    /// a problem at the later target (`file:line`) naming both, unless `prefer` (`mock --service`)
    /// names the service of exactly one of them: then the other is dropped. GraphQL targets on one
    /// endpoint whose operations differ are no conflict when `operations` (the mock picks one by the
    /// request's body; the library's stubs do not). `hint` says how to mend a pair (earlier, later).
    /// `apicli mock` and the library's stubs refuse the same pairs.
    package static func conflicts(_ routes: [TargetRoute], prefer: [String] = [], operations: Bool,
                                  hint: (TargetRoute, TargetRoute) -> String) -> (dropped: Set<Int>, problems: [Diagnostic]) {
        var problems: [Diagnostic] = []
        var dropped = Set<Int>()
        for i in routes.indices {
            for j in routes.indices where j > i && !dropped.contains(i) && !dropped.contains(j) {
                let (a, b) = (routes[i], routes[j])
                guard a.sameShape(as: b) else { continue }
                if operations, let x = graphqlName(a.target), let y = graphqlName(b.target), x != y { continue }
                let (pa, pb) = (prefer.contains(a.service.name), prefer.contains(b.service.name))
                if pa != pb {
                    dropped.insert(pa ? j : i)
                    continue
                }
                problems.append(Diagnostic(
                    file: b.service.file, mark: b.target.mark,
                    message: "route conflict: \(b.target.qualifiedName) and \(a.target.qualifiedName) (\(a.service.file):\(a.target.mark.line)) both answer \(b.label)",
                    hint: hint(a, b)))
            }
        }
        return (dropped, problems)
    }
}
