#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The JSONPath subset `expect: json:` understands: `$`, `.name`, `['name']`, `[0]`, `[-1]` (from
/// the end), `[*]` (every element: the rest of the path is applied to each, results collected in an
/// array) and a final `.length()` (elements of an array, members of an object, characters of text).
public struct JSONPath: Sendable, Equatable, CustomStringConvertible {
    public enum Step: Sendable, Equatable {
        case key(String)
        case index(Int)
        case every
        case length
    }

    public var steps: [Step]
    /// As written, for messages.
    public var description: String

    /// Parses `text`; the error says what is wrong at which character.
    public static func parse(_ text: String) -> Result<JSONPath, JSONPathError> {
        var scanner = Scanner(Array(text))
        guard scanner.take("$") else { return .failure(JSONPathError("a JSONPath starts with '$'")) }
        var steps: [Step] = []
        while !scanner.atEnd {
            if steps.last == .length { return .failure(JSONPathError("length() must be the last step")) }
            if scanner.take(".") {
                if scanner.take("length()") { steps.append(.length); continue }
                let name = scanner.name()
                if name == "*" { steps.append(.every); continue }
                guard !name.isEmpty else { return .failure(JSONPathError("expected a name after '.' at character \(scanner.position + 1)")) }
                steps.append(.key(name))
            } else if scanner.take("[") {
                guard let step = scanner.bracket() else {
                    return .failure(JSONPathError("expected [N], [*] or ['name'] at character \(scanner.position)"))
                }
                steps.append(step)
            } else {
                return .failure(JSONPathError("expected '.' or '[' at character \(scanner.position + 1)"))
            }
        }
        return .success(JSONPath(steps: steps, description: text))
    }

    /// The value at this path, or nil when a step finds nothing.
    public func evaluate(_ root: JSONValue) -> JSONValue? {
        Self.evaluate(steps[...], root)
    }

    private static func evaluate(_ steps: ArraySlice<Step>, _ value: JSONValue) -> JSONValue? {
        guard let step = steps.first else { return value }
        let rest = steps.dropFirst()
        switch (step, value) {
        case (.key(let k), .object(let members)):
            return members.first { $0.key == k }.flatMap { evaluate(rest, $0.value) }
        case (.index(let i), .array(let items)):
            let j = i < 0 ? items.count + i : i
            return items.indices.contains(j) ? evaluate(rest, items[j]) : nil
        case (.every, .array(let items)):
            return .array(items.compactMap { evaluate(rest, $0) })
        case (.every, .object(let members)):
            return .array(members.compactMap { evaluate(rest, $0.value) })
        case (.length, .array(let items)): return .number(Double(items.count))
        case (.length, .object(let members)): return .number(Double(members.count))
        case (.length, .string(let s)): return .number(Double(s.count))
        default: return nil
        }
    }

    private struct Scanner {
        let chars: [Character]
        var position = 0
        init(_ chars: [Character]) { self.chars = chars }

        var atEnd: Bool { position >= chars.count }

        mutating func take(_ word: String) -> Bool {
            let w = Array(word)
            guard position + w.count <= chars.count, Array(chars[position..<position + w.count]) == w else { return false }
            position += w.count
            return true
        }

        mutating func name() -> String {
            var out = ""
            while !atEnd, chars[position] != ".", chars[position] != "[" {
                out.append(chars[position])
                position += 1
            }
            return out
        }

        /// After '[': `*]`, `N]`, `-N]`, `'name']` or `"name"]`.
        mutating func bracket() -> Step? {
            if take("*]") { return .every }
            if let quote = chars[safe: position], quote == "'" || quote == "\"" {
                position += 1
                var out = ""
                while let c = chars[safe: position], c != quote { out.append(c); position += 1 }
                position += 1
                return take("]") ? .key(out) : nil
            }
            var digits = ""
            while let c = chars[safe: position], c.isNumber || (c == "-" && digits.isEmpty) { digits.append(c); position += 1 }
            guard let n = Int(digits), take("]") else { return nil }
            return .index(n)
        }
    }
}

public struct JSONPathError: Error, Sendable, Equatable {
    public var message: String
    init(_ message: String) { self.message = message }
}

extension Array {
    subscript(safe i: Int) -> Element? { indices.contains(i) ? self[i] : nil }
}
