import APIJSON
/// Equality as JSON Schema means it for `const`, `enum` and `uniqueItems`: JSON's, with text
/// compared code point by code point (`"é"` and `"e\u0301"` differ, unlike Swift's `==`).
enum SchemaEquality {
    static func equal(_ a: JSONValue, _ b: JSONValue) -> Bool {
        switch (a, b) {
        case let (.string(x), .string(y)): return x.unicodeScalars.elementsEqual(y.unicodeScalars)
        case let (.array(x), .array(y)): return x.count == y.count && zip(x, y).allSatisfy(equal)
        case let (.object(x), .object(y)):
            guard x.count == y.count else { return false }
            return x.allSatisfy { m in y.contains { $0.key.unicodeScalars.elementsEqual(m.key.unicodeScalars) && equal($0.value, m.value) } }
        default: return a == b
        }
    }
}
