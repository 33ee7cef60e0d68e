import APISupport
import APIYAML
import APIJSON
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension TargetFile.Keys {
    package static let expect = ["status", "headers", "json", "body", "schema", "maxTime", "events"]
    package static let bodyExpectation = ["contains", "matches"]
    /// The keys of a JSON comparison mapping: `{ ">=": 1 }`, `{ exists: false }`.
    package static let comparison = ComparisonOperator.allCases.map(\.rawValue) + ["exists"]
}

/// The `expect:` block of a target (see `Expectations`).
extension ServiceDecoder {
    mutating func expectations(_ node: Node, _ what: @autoclosure () -> String) -> Expectations? {
        guard let entries = reader.mapping(node, "expect of \(what())", known: TargetFile.Keys.expect) else { return nil }
        var expect = Expectations(mark: node.mark)
        for e in entries {
            switch MappingKey(e.key) {
            case "status": expect.status = statusPatterns(e.value)
            case "headers": expect.headers = headerExpectations(e.value)
            case "json": expect.json = jsonExpectations(e.value)
            case "body": expect.body = bodyExpectation(e.value)
            case "schema": expect.schema = schemaExpectation(e.value)
            case "events": expect.events = eventsExpectation(e.value)
            default: expect.maxTime = reader.duration(e.value, "maxTime", allowZero: false)
            }
        }
        return expect
    }

    /// `200`, `"2xx"`, or a list of them.
    private mutating func statusPatterns(_ node: Node) -> [StatusPattern]? {
        // One status (nearly every target): no list of one node made for it.
        guard let items = node.items else { return statusPattern(node).map { [$0] } }
        if items.isEmpty {
            reader.error("expect status: [] accepts no status at all", at: node.mark, hint: "list codes like [200, 201] or write \"2xx\"")
            return nil
        }
        let patterns = items.compactMap { statusPattern($0) }
        return patterns.count == items.count ? patterns : nil
    }

    private mutating func statusPattern(_ node: Node) -> StatusPattern? {
        guard let t = reader.text(node, "expect status") else { return nil }
        if let code = Int(t.text), (100...599).contains(code) { return .code(code) }
        let text = t.text.lowercased()
        if text.count == 3, text.hasSuffix("xx"), let digit = Int(text.prefix(1)), (1...5).contains(digit) {
            return .family(digit)
        }
        reader.error("expect status '\(t.text)' is not a status code (100-599) or a class like 2xx", at: node.mark,
                     hint: "write 200, [200, 201] or \"2xx\"")
        return nil
    }

    private mutating func headerExpectations(_ node: Node) -> [HeaderExpectation] {
        guard let entries = reader.mapping(node, "expect headers") else { return [] }
        return entries.compactMap { e in
            guard TargetFile.isToken(e.key) else {
                reader.error("'\(e.key)' is not a valid header name", at: e.keyMark)
                return nil
            }
            guard let t = reader.text(e.value, "expect header '\(e.key)'") else { return nil }
            if t.text.hasPrefix("~") { return HeaderExpectation(name: e.key, value: String(t.text.dropFirst()), contains: true) }
            return HeaderExpectation(name: e.key, value: t.text, contains: false)
        }
    }

    mutating func jsonExpectations(_ node: Node) -> [JSONExpectation] {
        guard let entries = reader.mapping(node, "expect json") else { return [] }
        var out: [JSONExpectation] = []
        out.reserveCapacity(entries.count)
        for e in entries {
            let path: JSONPath
            switch parsedPath(e.key) {
            case .success(let p): path = p
            case .failure(let error):
                reader.error("'\(e.key)' is not a JSONPath this tool understands: \(error.message)", at: e.keyMark,
                             hint: "use $.a.b, $.items[0].id, $.items[*].id or $.items.length()")
                continue
            }
            if let comparisons = comparisons(e.value, path: e.key) { out.append(JSONExpectation(path: path, comparisons: comparisons)) }
        }
        return out
    }

    /// `JSONPath.parse(text)`, each text parsed once by this decoder: targets repeat their paths
    /// (`$.id` in every one of thousands).
    private mutating func parsedPath(_ text: String) -> Result<JSONPath, JSONPathError> {
        if let parsed = parsedPaths[text] { return parsed }
        let parsed = JSONPath.parse(text)
        parsedPaths[text] = parsed
        return parsed
    }

    /// A value to equal, or a mapping of operators: `{ ">=": 1, "<": 10 }`, `{ exists: false }`.
    mutating func comparisons(_ node: Node, path: String) -> [JSONExpectation.Comparison]? {
        guard let pairs = node.pairs, pairs.contains(where: { Self.looksLikeOperator($0.key.scalarText ?? "") }) else {
            return reader.value(node, "the expected value of \(path)").map { [.compare(.equal, $0)] }
        }
        guard let entries = reader.mapping(node, "the comparison for \(path)", known: TargetFile.Keys.comparison) else { return nil }
        var out: [JSONExpectation.Comparison] = []
        for e in entries {
            if e.key == "exists" {
                if let b = reader.boolean(e.value, "exists") { out.append(.exists(b)) }
            } else if let op = ComparisonOperator(rawValue: e.key), let v = reader.value(e.value, "'\(e.key)' of \(path)") {
                out.append(.compare(op, v))
            }
        }
        return out.count == entries.count && !out.isEmpty ? out : nil
    }

    /// `exists`, or a key made only of `<>=!` (so a typo like `=>` is reported, not compared as an object).
    static func looksLikeOperator(_ key: String) -> Bool {
        key == "exists" || (!key.isEmpty && key.allSatisfy { "<>=!".contains($0) })
    }

    private mutating func bodyExpectation(_ node: Node) -> BodyExpectation? {
        guard let entries = reader.mapping(node, "expect body", known: TargetFile.Keys.bodyExpectation) else { return nil }
        guard entries.count == 1, let e = entries.first else {
            reader.error("expect body takes one of contains: or matches:", at: node.mark,
                         hint: "write body: { contains: \"text\" } or body: { matches: \"regex\" }")
            return nil
        }
        guard let t = reader.text(e.value, "expect body \(e.key)") else { return nil }
        if e.key == "contains" { return .contains(t.text) }
        do {
            _ = try BoundedRegex.compile(t.text)
        } catch {
            reader.error("expect body matches: '\(t.text)' is not a valid regular expression: \(error.message)", at: e.value.mark)
            return nil
        }
        return .matches(t.text)
    }
}
