/// Names an import makes up: targets in lowerCamelCase, services and variables from titles.
enum ImportNames {
    /// `list-pets`, `List pets`, `list_pets` → `listPets`; nil when nothing usable remains.
    static func lowerCamel(_ text: String) -> String? {
        let words = text.split(whereSeparator: { !($0.isASCII && ($0.isLetter || $0.isNumber)) })
        guard !words.isEmpty else { return nil }
        var out = ""
        for (i, word) in words.enumerated() {
            let w = String(word)
            if i == 0 {
                out += w.prefix(1).lowercased() + w.dropFirst()
            } else {
                out += w.prefix(1).uppercased() + w.dropFirst()
            }
        }
        return out
    }

    /// A target name from the method and path when there is no `operationId`:
    /// `GET /pets/{petId}/toys` → `getPetsByPetIdToys`.
    static func fromRoute(_ method: String, _ path: String) -> String {
        var words = [method.lowercased()]
        for segment in path.split(separator: "/") {
            if segment.hasPrefix("{"), segment.hasSuffix("}") {
                words.append("by " + segment.dropFirst().dropLast())
            } else {
                words.append(String(segment))
            }
        }
        return lowerCamel(words.joined(separator: " ")) ?? method.lowercased()
    }

    /// A service name (letters, digits, `-`) from a title: `Swagger Petstore` → `swagger-petstore`.
    static func service(_ title: String) -> String? {
        let words = title.lowercased().split(whereSeparator: { !($0.isASCII && ($0.isLetter || $0.isNumber)) })
        return words.isEmpty ? nil : words.joined(separator: "-")
    }

    /// An environment-variable prefix: `swagger-petstore` → `SWAGGER_PETSTORE`.
    static func variable(_ service: String) -> String {
        String(service.uppercased().map { $0.isASCII && ($0.isLetter || $0.isNumber) ? $0 : "_" })
    }

    /// A `{placeholder}` name for a parameter (letters, digits, `_`, `-`, `.`; not starting with a digit).
    static func placeholder(_ name: String) -> String {
        var out = String(name.map { $0.isASCII && ($0.isLetter || $0.isNumber || "_-.".contains($0)) ? $0 : "_" })
        if let first = out.first, !(first.isLetter || first == "_") { out = "_" + out }
        return out.isEmpty ? "_" : out
    }

    /// Letters, digits and `_`, not starting with a digit: a JSONPath `.name` step.
    static func isIdentifier(_ s: String) -> Bool {
        guard let first = s.first, first.isASCII, first.isLetter || first == "_" else { return false }
        return s.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }
    }

    /// `name` made unique among `taken` with a number: `getPets`, `getPets2`, …
    static func unique(_ name: String, _ taken: inout Set<String>) -> String {
        var candidate = name
        var n = 2
        while taken.contains(candidate) {
            candidate = "\(name)\(n)"
            n += 1
        }
        taken.insert(candidate)
        return candidate
    }
}
