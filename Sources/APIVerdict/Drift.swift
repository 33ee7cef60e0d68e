import APISupport
import APIJSON
import APISchema
import APITargets
import APITransport
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `check --drift`: how far a live response has moved from the target's sample. Only the shape
/// is compared, never values: the status class, the media type of Content-Type, and for JSON
/// bodies the type of every path (`$.items[*].price`), paths missing live and paths added live.
/// No other header is compared (so `X-…`, dates, ETags and request ids never drift).
package enum Drift {
    /// `--drift` fails the check; `--drift=warn` only reports.
    package enum Mode: String, Sendable, CaseIterable {
        case fail, warn
    }

    /// What a live response of a target is compared with: its `sample:` rendered.
    package struct Baseline: Sendable {
        package var mode: Mode
        package var status: Int
        package var contentType: String?
        package var json: JSONValue?
        /// Paths (as written by `Drift.paths`, e.g. `$.token`) not compared, nor anything under them.
        package var ignored: [String]
        /// The target's `expect: schema:`: a live JSON body breaking it is drift, by instance path.
        package var schema: SchemaExpectation?

        package init(mode: Mode, sample: Response, ignored: [String] = []) {
            self.mode = mode
            status = sample.status
            contentType = sample.headers.value(of: "Content-Type").map(Drift.mediaType)
            json = contentType.map(Drift.isJSON) == false ? nil : JSONValue.parse(sample.body)
            self.ignored = ignored
        }

        /// The differences, each one line: `$.owner.login: missing live`.
        package func differences(from live: Response, limit: Int = 20) -> [String] {
            var out: [String] = []
            if status / 100 != live.status / 100 {
                out.append("status: sample has \(status / 100)xx, live has \(live.status / 100)xx (\(live.status))")
            }
            let liveType = live.headers.value(of: "Content-Type").map(Drift.mediaType)
            if let contentType, contentType != liveType {
                out.append("Content-Type: sample has \(contentType), live has \(liveType ?? "none")")
            }
            if let json, contentType == liveType || contentType == nil {
                if let liveJSON = JSONValue.parse(live.body) {
                    out += Drift.compare(json, liveJSON, ignored: ignored)
                } else if !live.body.isEmpty || !(json == .null) {
                    out.append("$: sample has JSON, live body is not JSON")
                }
            }
            if let schema {
                out += Judge.schema(schema, live).map { String($0.dropFirst("schema: ".count)) }
            }
            guard out.count > limit else { return out }
            return Array(out.prefix(limit)) + ["… and \(out.count - limit) more differences"]
        }
    }

    package static func mediaType(_ value: String) -> String {
        String(value.split(separator: ";", maxSplits: 1).first ?? "").trimmingSpaces().lowercased()
    }

    package static func isJSON(_ mediaType: String) -> Bool {
        mediaType == "application/json" || mediaType.hasSuffix("+json") || mediaType.hasSuffix("/json")
    }

    /// Every path of `value` and the types found there. Array elements share one path `[*]`.
    package static func paths(_ value: JSONValue) -> [(path: String, types: Set<String>)] {
        var order: [String] = []
        var types: [String: Set<String>] = [:]
        func walk(_ v: JSONValue, _ path: String) {
            if types[path] == nil { order.append(path) }
            types[path, default: []].insert(typeName(v))
            switch v {
            case .object(let members):
                for m in members { walk(m.value, path + segment(m.key)) }
            case .array(let items):
                for item in items { walk(item, path + "[*]") }
            default: break
            }
        }
        walk(value, "$")
        return order.map { ($0, types[$0]!) }
    }

    /// Path by path: a different type set, a path missing live, a path added live. Under a path
    /// that is already reported (or missing on one side, or an empty array) nothing more is said.
    package static func compare(_ sample: JSONValue, _ live: JSONValue, ignored: [String] = []) -> [String] {
        let (s, l) = (paths(sample), paths(live))
        let sampleTypes = Dictionary(s.map { ($0.path, $0.types) }, uniquingKeysWith: { a, _ in a })
        let liveTypes = Dictionary(l.map { ($0.path, $0.types) }, uniquingKeysWith: { a, _ in a })
        var reported: [String] = ignored
        var out: [String] = []
        func under(_ path: String) -> Bool {
            reported.contains { r in
                let next = path.hasPrefix(r) ? path.dropFirst(r.count).first : nil
                return path == r || next == "." || next == "["
            }
        }
        /// `$.a[*].b` when `$.a` is an empty array on `other`'s side: nothing to say about elements.
        func emptyArray(above path: String, in other: [String: Set<String>]) -> Bool {
            guard let parent = parentArray(of: path) else { return false }
            return other[parent] != nil && other[parent + "[*]"] == nil
        }
        for (path, types) in s where !under(path) {
            guard let other = liveTypes[path] else {
                if emptyArray(above: path, in: liveTypes) { continue }
                out.append("\(path): missing live")
                reported.append(path)
                continue
            }
            if types != other {
                out.append("\(path): sample has \(names(types)), live has \(names(other))")
                reported.append(path)
            }
        }
        for (path, types) in l where sampleTypes[path] == nil && !under(path) {
            if emptyArray(above: path, in: sampleTypes) { continue }
            out.append("\(path): added live (\(names(types)))")
            reported.append(path)
        }
        return out
    }

    /// For `$.a[*].b`, `$.a` when the first missing piece is an array's element: an empty array on
    /// one side says nothing about its elements.
    private static func parentArray(of path: String) -> String? {
        guard let range = path.ranges(of: "[*]").last else { return nil }
        return String(path[..<range.lowerBound])
    }

    private static func names(_ types: Set<String>) -> String {
        types.sorted().joined(separator: " or ")
    }

    static func typeName(_ v: JSONValue) -> String {
        switch v {
        case .null: return "null"
        case .bool: return "bool"
        case .number: return "number"
        case .string: return "string"
        case .array: return "array"
        case .object: return "object"
        }
    }

    package static func segment(_ key: String) -> String {
        let plain = !key.isEmpty && key.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }
            && !(key.first?.isNumber ?? true)
        if plain { return "." + key }
        var quoted = ""
        for c in key { quoted += c == "'" ? "\\'" : c == "\\" ? "\\\\" : String(c) }
        return "['\(quoted)']"
    }
}
