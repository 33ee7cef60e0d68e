import APISupport
import APIYAML
/// Bruno's asserts (`res.status: eq 200`, `res.body.id: isDefined`, `res.headers.content-type:
/// contains json`, `res.responseTime: lt 500`) → `expect:` where it has the same check: status,
/// headers (equal or contains), JSONPath values (eq, neq, gt, gte, lt, lte, isDefined,
/// isUndefined, isNull), body (contains, matches) and maxTime. The others are warnings.
extension BrunoMapper {
    static let operators: Set<String> = ["eq", "neq", "gt", "gte", "lt", "lte", "in", "notIn", "contains", "notContains", "length",
                                         "matches", "notMatches", "startsWith", "endsWith", "between", "isEmpty", "isNotEmpty",
                                         "isNull", "isUndefined", "isDefined", "isTruthy", "isFalsy", "isJson", "isNumber",
                                         "isString", "isBoolean", "isArray"]

    mutating func expect(_ asserts: [BrunoEntry], into r: inout CollectionRequest) {
        var status: YAMLOut?
        var headers: [YAMLOut.Entry] = []
        var json: [YAMLOut.Entry] = []
        var body: [YAMLOut.Entry] = []
        var maxTime: YAMLOut?
        for a in asserts {
            let expr = a.name.trimmingWhitespace()
            let (op, arg) = Self.split(a.value)
            let value = Self.typed(arg)
            var mapped = !arg.contains("{{")
            switch expr {
            case _ where !mapped:
                break
            case "res.status":
                if op == "eq", case .number = value { status = value } else { mapped = false }
            case "res.responseTime":
                if op == "lt" || op == "lte", case .number(let n) = value { maxTime = .string("\(n)ms") } else { mapped = false }
            case "res.body" where op == "contains" || op == "matches":
                if body.isEmpty { body = [.pair(op, .string(arg))] } else { mapped = false }  // `body:` holds one check
            case _ where expr.hasPrefix("res.headers.") || expr.hasPrefix("res.headers["):
                var name = String(expr.dropFirst("res.headers".count))
                if name.hasPrefix(".") { name.removeFirst() }
                if name.hasPrefix("['"), name.hasSuffix("']") { name = String(name.dropFirst(2).dropLast(2)) }
                if op == "eq" || op == "contains" { mapped = Self.add(name, .string(op == "eq" ? arg : "~" + arg), to: &headers) } else { mapped = false }
            case _ where expr == "res.body" || expr.hasPrefix("res.body.") || expr.hasPrefix("res.body["):
                let path = "$" + expr.dropFirst("res.body".count)
                let compare = ["neq": "!=", "gt": ">", "gte": ">=", "lt": "<", "lte": "<="]
                switch op {
                case "eq": mapped = Self.add(path, value, to: &json)
                case "isNull": mapped = Self.add(path, .null, to: &json)
                case "isDefined": mapped = Self.add(path, .map([.pair("exists", .bool(true))]), to: &json)
                case "isUndefined": mapped = Self.add(path, .map([.pair("exists", .bool(false))]), to: &json)
                case _ where compare[op] != nil: mapped = Self.add(path, .map([.pair(compare[op]!, value)]), to: &json)
                default: mapped = false
                }
            default:
                mapped = false
            }
            if !mapped {
                warn(a.place, "the assert '\(expr): \(a.value)' has no expect: equivalent (or repeats a check of its key); it is not imported")
                r.notes.append("The assert '\(ImportText.oneLine(expr)): \(ImportText.oneLine(a.value))' was not imported.")
            }
        }
        if case .number(let n)? = status, let code = Int(n) { r.expectStatus = code }  // first; samples of another status expect failure
        if !headers.isEmpty { r.expect.append(.pair("headers", .map(headers))) }
        if !json.isEmpty { r.expect.append(.pair("json", .map(json))) }
        if !body.isEmpty { r.expect.append(.pair("body", .map(body))) }
        if let maxTime { r.expect.append(.pair("maxTime", maxTime)) }
    }

    /// `key: value` added to `entries`; two comparisons of one key merge (`{ ">": 1, "<": 9 }`); false when
    /// the key is there already otherwise (a target file holds each key once).
    static func add(_ key: String, _ value: YAMLOut, to entries: inout [YAMLOut.Entry]) -> Bool {
        guard let i = entries.firstIndex(where: { if case .pair(key, _) = $0 { return true } else { return false } }) else {
            entries.append(.pair(key, value))
            return true
        }
        guard case .pair(_, .map(let old)) = entries[i], case .map(let new) = value,
              !new.contains(where: { n in old.contains { if case .pair(let a, _) = $0, case .pair(let b, _) = n { return a == b } else { return false } } })
        else { return false }
        entries[i] = .pair(key, .map(old + new))
        return true
    }

    /// `eq 200` → (eq, 200); `200` (no operator) → (eq, 200).
    static func split(_ value: String) -> (op: String, arg: String) {
        let t = value.trimmingWhitespace()
        let word = String(t.prefix { !$0.isWhitespace })
        guard operators.contains(word) else { return ("eq", t) }
        return (word, String(t.dropFirst(word.count)).trimmingWhitespace())
    }

    /// A Bruno assert value: a number, `true`/`false`, `null`, a quoted string, else the text.
    static func typed(_ arg: String) -> YAMLOut {
        if arg == "true" || arg == "false" { return .bool(arg == "true") }
        if arg == "null" { return .null }
        if !arg.isEmpty, Double(arg) != nil, arg.allSatisfy({ $0.isNumber || $0 == "." || $0 == "-" }) { return .number(arg) }
        if arg.count >= 2, let f = arg.first, f == "\"" || f == "'", arg.last == f { return .string(String(arg.dropFirst().dropLast())) }
        return .string(arg)
    }
}
