import APITransport
/// Names an import makes up: targets in lowerCamelCase, services and variables from titles.
enum ImportNames {
    /// `list-pets`, `List pets`, `list_pets` → `listPets`; nil when nothing usable remains.
    static func lowerCamel(_ text: String) -> String? {
        var out: [UInt8] = []
        var startOfWord = true
        for b in text.utf8 {
            guard isAlphanumeric(b) else {
                startOfWord = true
                continue
            }
            if startOfWord, isLetter(b) {
                out.append(out.isEmpty ? b | 0x20 : b & ~0x20)  // ASCII lower / upper case
            } else {
                out.append(b)
            }
            startOfWord = false
        }
        return out.isEmpty ? nil : String(decoding: out, as: UTF8.self)
    }

    static func isLetter(_ b: UInt8) -> Bool { (65...90).contains(b) || (97...122).contains(b) }
    static func isAlphanumeric(_ b: UInt8) -> Bool { isLetter(b) || (48...57).contains(b) }

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
        let name = String(service.uppercased().map { $0.isASCII && ($0.isLetter || $0.isNumber) ? $0 : "_" })
        return name.first?.isNumber == true ? "_" + name : name  // a variable name starts with a letter or '_'
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

}

/// Names made unique with a number (`getPets`, `getPets2`, …), the smallest free number each
/// time, in linear time: each name remembers the number after the last it gave out, so 20,000
/// requests called "New Request" take 20,000 steps, not 200 million.
struct UniqueNames {
    private var taken: Set<String> = []
    /// The number to try next after each name (2 until one was given out).
    private var next: [String: Int] = [:]
    /// Candidates looked up so far: the work done, for tests.
    private(set) var probes = 0

    init(_ names: Set<String> = []) {
        taken = names
    }

    /// `name`, or `name` with the smallest number from 2 up that is not taken; now taken.
    mutating func claim(_ name: String) -> String {
        probes += 1
        if taken.insert(name).inserted { return name }
        var n = next[name] ?? 2
        while true {
            probes += 1
            let candidate = "\(name)\(n)"
            n += 1
            if taken.insert(candidate).inserted {
                next[name] = n
                return candidate
            }
        }
    }
}
