import APIJSON
/// One way an instance breaks a schema: where in the instance (`$.items[3].price`), which
/// keyword at which schema location, what it expected and what it got.
package struct SchemaViolation: Sendable, Equatable, CustomStringConvertible {
    package let instancePath: String
    package let schemaPath: String
    package let keyword: String
    package let expected: String
    package let got: String
    package let message: String

    package init(instancePath: String, schemaPath: String, keyword: String, expected: String, got: String, message: String) {
        self.instancePath = instancePath
        self.schemaPath = schemaPath
        self.keyword = keyword
        self.expected = expected
        self.got = got
        self.message = message
    }

    /// `$.items[3].price: 0 is below minimum 1 (#/components/schemas/Item/properties/price)`
    package var description: String { "\(instancePath): \(message) (\(schemaPath))" }
}

/// Where in the instance: the first `depth` steps of the evaluator's path (`InstancePath`), which
/// validation overwrites as it descends, so going one member deeper allocates nothing. A location
/// is only read while the evaluation it was made for is running.
struct InstanceLocation: Sendable {
    let depth: Int
    static let root = InstanceLocation(depth: 0)
}

/// The steps from the instance's root down to where validation is.
struct InstancePath {
    enum Step { case key(String), index(Int) }
    private var steps: [Step] = []

    /// The location one step below `parent` (steps below `parent` are replaced).
    mutating func child(_ parent: InstanceLocation, _ step: Step) -> InstanceLocation {
        while steps.count > parent.depth { steps.removeLast() }
        steps.append(step)
        return InstanceLocation(depth: parent.depth + 1)
    }

    func isKey(_ at: InstanceLocation) -> Bool {
        guard at.depth > 0, case .key = steps[at.depth - 1] else { return false }
        return true
    }

    /// `$.items[3].price`, `$['a b']`.
    func text(_ at: InstanceLocation) -> String {
        var out = "$"
        for step in steps.prefix(at.depth) {
            switch step {
            case .index(let i): out += "[\(i)]"
            case .key(let k):
                let plain = !k.isEmpty && k.unicodeScalars.allSatisfy { ($0.isASCII && ($0.properties.isAlphabetic || $0.properties.numericType != nil)) || $0 == "_" }
                    && !(k.first!.isNumber)
                if plain { out += "." + k; continue }
                var quoted = ""
                JSONText.writeString(k, into: &quoted)
                out += "[" + String(quoted.dropFirst().dropLast()).replacing("'", with: "\\'").wrappedInQuotes + "]"
            }
        }
        return out
    }
}

private extension String {
    var wrappedInQuotes: String { "'" + self + "'" }
}
