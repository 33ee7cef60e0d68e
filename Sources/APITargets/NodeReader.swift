import APISupport
import APIYAML
import APIJSON
import APIDiagnostics
import APISchema
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Typed reads from YAML nodes that never stop at the first problem: each read that fails records a
/// diagnostic with the node's mark and returns nil, so one run reports every problem of a file.
package struct NodeReader {
    let file: String
    private(set) var diagnostics: [Diagnostic] = []

    package init(file: String) {
        self.file = file
    }

    struct Entry {
        var key: String
        var keyMark: Mark
        var value: Node
    }

    package mutating func error(_ message: String, at mark: Mark, hint: String? = nil) {
        diagnostics.append(Diagnostic(file: file, mark: mark, message: message, hint: hint))
    }

    /// Problems that do not stop the file from loading (`Service.warnings`).
    private(set) var warnings: [Diagnostic] = []

    /// Another reader's diagnostics and warnings after this one's (a part of the same file read
    /// on another thread, `ServiceDecoder.service`).
    mutating func append(_ other: NodeReader, droppingRepeats: Bool = false) {
        guard droppingRepeats, !other.diagnostics.isEmpty else {
            diagnostics += other.diagnostics
            warnings += other.warnings
            return
        }
        func key(_ d: Diagnostic) -> String { "\(d.file ?? ""):\(d.mark?.description ?? ""):\(d.message)" }
        var seen = Set(diagnostics.map(key))
        diagnostics += other.diagnostics.filter { seen.insert(key($0)).inserted }
        warnings += other.warnings
    }

    mutating func warn(_ message: String, at mark: Mark, hint: String? = nil) {
        var d = Diagnostic(file: file, mark: mark, message: message, hint: hint)
        d.isWarning = true
        warnings.append(d)
    }

    /// A mapping's entries in order. With `known`, any other key is reported with a did-you-mean hint,
    /// except keys starting with `x-`: those are ignored, a place for shared blocks (`x-defaults: &d`).
    mutating func mapping(_ node: Node, _ what: @autoclosure () -> String, known: [String]? = nil) -> [Entry]? {
        guard let pairs = node.pairs else {
            error("\(what()) must be a mapping, not \(node.kindName)", at: node.mark)
            return nil
        }
        var entries: [Entry] = []
        entries.reserveCapacity(pairs.count)
        // Each pair's fields read in place: `for pair in pairs` copied every pair whole.
        pairs.withUnsafeBufferPointer { buffer in
            guard let first = buffer.baseAddress else { return }
            for pair in first ..< first + buffer.count {
                guard let key = pair.pointee.key.scalarText else {
                    nonTextKey(pair.pointee.key, what())
                    continue
                }
                if let known, !MappingKey.contains(known, key) {
                    if key.hasPrefix("x-") { continue }
                    let hint = Suggestions.hint(for: key, in: known)
                        ?? "known keys: " + known.joined(separator: ", ")
                            + "; a key for shared blocks or anchors (&name) starts with x-: x-\(key)"
                    error("unknown key '\(key)' in \(what())", at: pair.pointee.key.mark, hint: hint)
                    continue
                }
                entries.append(Entry(key: key, keyMark: pair.pointee.key.mark, value: pair.pointee.value))
            }
        }
        return entries
    }

    /// A mapping's key that is not a scalar (`mapping`'s problem with it).
    mutating func nonTextKey(_ key: Node, _ what: String) {
        error("keys in \(what) must be text, not \(key.kindName)", at: key.mark)
    }

    /// A scalar as text (numbers and booleans as written). Null and collections are errors.
    mutating func text(_ node: Node, _ what: @autoclosure () -> String) -> Template? {
        guard case .scalar(let s) = node.content else {
            error("\(what()) must be text, not \(node.kindName)", at: node.mark)
            return nil
        }
        if node.isNull {
            error("\(what()) needs a value", at: node.mark)
            return nil
        }
        return Template(s.value, mark: node.mark)
    }

    /// YAML 1.2's core schema spellings of true and false: the only ones apicli reads.
    static func boolean(_ text: String) -> Bool? {
        // Every plain scalar of a value is asked: by length first (4 or 5 bytes).
        let count = text.utf8.count
        guard count == 4 || count == 5 else { return nil }
        switch text {
        case "true", "True", "TRUE": return true
        case "false", "False", "FALSE": return false
        default: return nil
        }
    }

    /// `true` or `false`, not quoted.
    mutating func boolean(_ node: Node, _ what: @autoclosure () -> String) -> Bool? {
        if case .scalar(let s) = node.content, s.isPlain, let b = Self.boolean(s.value) { return b }
        error("\(what()) must be true or false, not \(node.scalarText.map { "'\($0)'" } ?? node.kindName)", at: node.mark)
        return nil
    }

    /// A whole number in `range`.
    mutating func integer(_ node: Node, _ what: @autoclosure () -> String, in range: ClosedRange<Int>) -> Int? {
        guard let t = text(node, what()) else { return nil }
        guard let n = Int(t.text), range.contains(n) else {
            error("\(what()) must be a whole number from \(range.lowerBound) to \(range.upperBound), not '\(t.text)'", at: node.mark)
            return nil
        }
        return n
    }

    /// Seconds: a number (`30`, `1.5`) or a number with a unit (`800ms`, `2s`, `1m`).
    mutating func duration(_ node: Node, _ what: @autoclosure () -> String, allowZero: Bool) -> Double? {
        guard let t = text(node, what()) else { return nil }
        guard let seconds = Self.seconds(t.text), seconds.isFinite, seconds > 0 || (allowZero && seconds == 0) else {
            error("\(what()) must be a \(allowZero ? "non-negative" : "positive") duration in seconds, not '\(t.text)'",
                  at: node.mark, hint: "write 30, 1.5, 800ms, 2s or 1m")
            return nil
        }
        guard Durations.accepts(seconds, allowZero: allowZero) else {
            error("\(what()) must be at most a day (\(Int(Durations.maxSeconds)) s), not '\(t.text)'", at: node.mark,
                  hint: "no exchange waits longer; write 30, 1.5, 800ms, 2s or 1m")
            return nil
        }
        return seconds
    }

    package static func seconds(_ text: String) -> Double? {
        let units: [(String, Double)] = [("ms", 0.001), ("s", 1), ("m", 60)]
        for (suffix, scale) in units where text.hasSuffix(suffix) {
            return Double(text.dropLast(suffix.count)).map { $0 * scale }
        }
        return Double(text)
    }

    /// One of `choices` (an enum's raw values), with a did-you-mean hint otherwise.
    mutating func choice<E: RawRepresentable & CaseIterable>(_ node: Node, _ what: @autoclosure () -> String, as: E.Type) -> E?
    where E.RawValue == String {
        guard let t = text(node, what()) else { return nil }
        if let value = E(rawValue: t.text) { return value }
        let names = E.allCases.map(\.rawValue)
        error("unknown \(what()) '\(t.text)'", at: node.mark,
              hint: Suggestions.hint(for: t.text, in: names) ?? "use one of: " + names.joined(separator: ", "))
        return nil
    }

    /// Any YAML value as structured data. Plain scalars resolve as YAML's core schema does
    /// (null, true/false, numbers); quoted scalars and `!!str` are always text.
    package mutating func value(_ node: Node, _ what: @autoclosure () -> String) -> Value? {
        switch node.content {
        case .scalar(let s):
            if !s.isPlain || node.tag == Node.strTag { return .string(Template(s.value, mark: node.mark)) }
            if node.isNull { return .null }
            if let b = Self.boolean(s.value) { return .bool(b) }
            if let number = YAMLScalar.number(s.value) { return .number(number) }
            return .string(Template(s.value, mark: node.mark))
        case .sequence(let items):
            var out: [Value] = []
            out.reserveCapacity(items.count)
            for item in items {
                if let v = value(item, what()) { out.append(v) }
            }
            return .array(out)
        case .mapping(let pairs):
            var members: [Value.Member] = []
            members.reserveCapacity(pairs.count)
            for pair in pairs {
                guard let key = pair.key.scalarText else {
                    error("keys in \(what()) must be text, not \(pair.key.kindName)", at: pair.key.mark)
                    continue
                }
                if let v = value(pair.value, what()) { members.append(.init(key: key, value: v)) }
            }
            return .object(members)
        }
    }

}

/// A mapping key as a `switch` subject (`switch MappingKey(e.key) { case "path": … }`): the byte
/// counts are compared before the text, so each case that does not match costs an integer
/// comparison, not a String comparison (decoding reads every key of every target this way).
extension Array where Element == NodeReader.Entry {
    /// The value of the entry named `key`, the entries read in place (`first(where:)` copied every
    /// entry it passed, and the one it found).
    func value(of key: String) -> Node? {
        withUnsafeBufferPointer { entries in
            for i in entries.indices where entries[i].key == key { return entries[i].value }
            return nil
        }
    }
}

struct MappingKey: Equatable, ExpressibleByStringLiteral {
    let text: String
    let count: Int

    package init(_ text: String) {
        self.text = text
        count = text.utf8.count
    }

    package init(stringLiteral text: String) {
        self.init(text)
    }

    static func == (a: MappingKey, b: MappingKey) -> Bool {
        a.count == b.count && a.text == b.text
    }

    /// `keys.contains(key)`, by the same rule.
    static func contains(_ keys: [String], _ key: String) -> Bool {
        let count = key.utf8.count
        return keys.contains { $0.utf8.count == count && $0 == key }
    }
}
