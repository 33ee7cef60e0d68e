import APISupport
import APIJSON
import APISchema
import APITargets
/// `application/x-www-form-urlencoded` text from a mapping, as Alamofire's URLEncoding writes it:
/// keys sorted, nested mappings as `k[sub]=v`, arrays as `k[]=v` (or `k=v`), booleans as 1/0
/// (or true/false), null as an empty value.
package struct ParameterEncoder: Sendable {
    package var arrays: ArrayEncoding
    package var bools: BoolEncoding

    package init(arrays: ArrayEncoding = .brackets, bools: BoolEncoding = .numeric) {
        self.arrays = arrays
        self.bools = bools
    }

    package func encode(_ parameters: Value) -> String {
        guard case .object(let members) = parameters else { return "" }
        var components: [(String, String)] = []
        // One member (`query: { i: 1 }`, the usual query) needs no sorting; the pairs are written
        // into one string, not each made a string and then joined.
        for member in members.count < 2 ? members : members.sorted(by: { $0.key < $1.key }) {
            append(key: member.key, value: member.value, to: &components)
        }
        var out = ""
        for (i, (key, value)) in components.enumerated() {
            if i > 0 { out += "&" }
            out += URLBuilder.escapeQuery(key)
            out += "="
            out += URLBuilder.escapeQuery(value)
        }
        return out
    }

    private func append(key: String, value: Value, to components: inout [(String, String)]) {
        switch value {
        case .object(let members):
            for m in members.sorted(by: { $0.key < $1.key }) {
                append(key: "\(key)[\(m.key)]", value: m.value, to: &components)
            }
        case .array(let items):
            let itemKey = arrays == .brackets ? "\(key)[]" : key
            for item in items { append(key: itemKey, value: item, to: &components) }
        case .bool(let b):
            components.append((key, bools == .numeric ? (b ? "1" : "0") : (b ? "true" : "false")))
        case .null, .number, .string:
            components.append((key, value.scalarText ?? ""))
        }
    }
}
