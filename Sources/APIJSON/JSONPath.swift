#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The JSONPath subset `expect: json:` understands: `$`, `.name`, `['name']`, `[0]`, `[-1]` (from
/// the end), `[*]` (every element: the rest of the path is applied to each, results collected in an
/// array) and a final `.length()` (elements of an array, members of an object, characters of text).
package struct JSONPath: Sendable, Equatable, CustomStringConvertible {
    package enum Step: Sendable, Equatable {
        case key(String)
        case index(Int)
        case every
        case length
    }

    package var steps: [Step]
    /// As written, for messages.
    package var description: String

    /// Parses `text`; the error says what is wrong at which character.
    package static func parse(_ text: String) -> Result<JSONPath, JSONPathError> {
        var scanner = Scanner(text)
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
    package func evaluate(_ root: JSONValue) -> JSONValue? {
        Self.evaluate(steps[...], root)
    }

    /// `steps` (the rest of a path) from `value`.
    package static func evaluate(_ steps: ArraySlice<Step>, _ value: JSONValue) -> JSONValue? {
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

    /// Reads UTF-8 bytes: every character the syntax names is ASCII, so names and quoted keys are
    /// cut at byte boundaries that are character boundaries too. Positions in messages count
    /// characters.
    private struct Scanner {
        let bytes: [UInt8]
        var index = 0
        init(_ text: String) { bytes = Array(text.utf8) }

        var atEnd: Bool { index >= bytes.count }
        /// The 0-based character position of `index` (past the end: counted on, one a byte).
        var position: Int {
            let end = min(index, bytes.count)
            return String(decoding: bytes[..<end], as: UTF8.self).count + (index - end)
        }

        mutating func take(_ word: StaticString) -> Bool {
            let matches = word.withUTF8Buffer { w in
                index + w.count <= bytes.count && w.indices.allSatisfy { bytes[index + $0] == w[$0] }
            }
            if matches { index += word.utf8CodeUnitCount }
            return matches
        }

        mutating func name() -> String {
            let start = index
            while !atEnd, bytes[index] != UInt8(ascii: "."), bytes[index] != UInt8(ascii: "[") { index += 1 }
            return String(decoding: bytes[start..<index], as: UTF8.self)
        }

        /// After '[': `*]`, `N]`, `-N]`, `'name']` or `"name"]`.
        mutating func bracket() -> Step? {
            if take("*]") { return .every }
            if let quote = bytes[safe: index], quote == UInt8(ascii: "'") || quote == UInt8(ascii: "\"") {
                index += 1
                let start = index
                while let c = bytes[safe: index], c != quote { index += 1 }
                let key = String(decoding: bytes[start..<min(index, bytes.count)], as: UTF8.self)
                index += 1
                return take("]") ? .key(key) : nil
            }
            let start = index
            while let c = bytes[safe: index], (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(c) || (c == UInt8(ascii: "-") && index == start) {
                index += 1
            }
            guard let n = Int(String(decoding: bytes[start..<index], as: UTF8.self)), take("]") else { return nil }
            return .index(n)
        }
    }
}

package struct JSONPathError: Error, Sendable, Equatable {
    package var message: String
    package init(_ message: String) { self.message = message }
}

extension Array {
    subscript(safe i: Int) -> Element? { indices.contains(i) ? self[i] : nil }
}
