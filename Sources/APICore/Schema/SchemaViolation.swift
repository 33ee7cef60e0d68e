/// One way an instance breaks a schema: where in the instance (`$.items[3].price`), which
/// keyword at which schema location, what it expected and what it got.
public struct SchemaViolation: Sendable, Equatable, CustomStringConvertible {
    public let instancePath: String
    public let schemaPath: String
    public let keyword: String
    public let expected: String
    public let got: String
    public let message: String

    /// `$.items[3].price: 0 is below minimum 1 (#/components/schemas/Item/properties/price)`
    public var description: String { "\(instancePath): \(message) (\(schemaPath))" }
}

/// Where in the instance, built as validation descends and spelled only for a violation.
indirect enum InstanceLocation: Sendable {
    case root
    case key(InstanceLocation, String)
    case index(InstanceLocation, Int)

    var text: String {
        switch self {
        case .root: return "$"
        case .index(let parent, let i): return parent.text + "[\(i)]"
        case .key(let parent, let k):
            let plain = !k.isEmpty && k.unicodeScalars.allSatisfy { ($0.isASCII && ($0.properties.isAlphabetic || $0.properties.numericType != nil)) || $0 == "_" }
                && !(k.first!.isNumber)
            if plain { return parent.text + "." + k }
            var quoted = ""
            Value.writeJSONString(k, into: &quoted)
            return parent.text + "[" + String(quoted.dropFirst().dropLast()).replacing("'", with: "\\'").wrappedInQuotes + "]"
        }
    }
}

private extension String {
    var wrappedInQuotes: String { "'" + self + "'" }
}
