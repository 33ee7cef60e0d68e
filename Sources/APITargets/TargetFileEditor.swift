import APIYAML
import APIDiagnostics
/// The one way to change a target file (`record`, `import curl --to`, `call --save`): its text
/// edited in place, by lines: only the lines written change; every other byte (comments,
/// anchors, key order, blank lines, CRLF line endings) stays. Before anything is written the
/// edited text is decoded again (`checked`): an edit that would break the file writes nothing.
/// Where a node ends comes from indentation: a block value runs over the lines indented deeper
/// than its key (blank and comment lines included, except those trailing it, which belong to
/// what follows).
package struct TargetFileEditor {
    package private(set) var lines: [String]
    /// "\r" when the file's lines end in CRLF (kept on every line written).
    let cr: String
    package let file: String

    package init(text: String, file: String) {
        // Split on the byte: in a String "\r\n" is one Character, not a "\r" before a "\n".
        var lines = text.utf8.split(separator: 10, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
        if lines.last == "" { lines.removeLast() }
        self.lines = lines
        cr = lines.first?.hasSuffix("\r") == true ? "\r" : ""
        self.file = file
    }

    package var text: String { lines.map { $0 + "\n" }.joined() }

    /// The text from `a` up to `b` (marks as libyaml gives them), lines joined by "\n" (no "\r").
    package func slice(_ a: Mark, _ b: Mark) -> String {
        func strip(_ line: String) -> Substring.UnicodeScalarView {
            Substring(line.hasSuffix("\r") ? String(line.dropLast()) : line).unicodeScalars
        }
        if a.line == b.line {
            let line = strip(lines[a.line - 1])
            return String(String.UnicodeScalarView(line.dropFirst(a.column - 1).prefix(b.column - a.column)))
        }
        var out = String(String.UnicodeScalarView(strip(lines[a.line - 1]).dropFirst(a.column - 1)))
        for l in a.line..<(b.line - 1) { out += "\n" + String(strip(lines[l])) }
        out += "\n" + String(String.UnicodeScalarView(strip(lines[b.line - 1]).prefix(b.column - 1)))
        return out
    }

    /// Whether two nodes say the same: scalars (text, plain or not, tag), lists and mappings in order.
    package static func same(_ a: Node, _ b: Node) -> Bool {
        guard a.tag == b.tag else { return false }
        switch (a.content, b.content) {
        case let (.scalar(x), .scalar(y)): return x.value == y.value && x.isPlain == y.isPlain
        case let (.sequence(x), .sequence(y)): return x.count == y.count && zip(x, y).allSatisfy { same($0, $1) }
        case let (.mapping(x), .mapping(y)):
            return x.count == y.count && zip(x, y).allSatisfy { same($0.key, $1.key) && same($0.value, $1.value) }
        default: return false
        }
    }

    /// Where a new key at `indent` goes after a block ending at `end`: after the comment lines
    /// that follow it indented as deep as the new key (they belong to the block), before blank lines.
    package func insertionPoint(after end: Int, indent: Int) -> Int {
        var at = end
        while at + 1 < lines.count, Self.isBlankOrComment(lines[at + 1]),
              lines[at + 1].contains("#"), Self.indentation(lines[at + 1]) >= indent {
            at += 1
        }
        return at
    }

    /// The pairs of a block mapping whose keys stand in `range` at `indent`: a merge key's
    /// copies (whose marks are elsewhere) are not the mapping's own lines.
    package func members(of node: Node, in range: ClosedRange<Int>, indent: Int) -> [Node.Pair] {
        (node.pairs ?? []).filter { range.contains($0.key.mark.line - 1) && $0.key.mark.column - 1 == indent }
    }

    /// The indentation of the first line after `index` that is not blank or a comment.
    package func childIndentation(after index: Int) -> Int? {
        lines[(index + 1)...].first { !Self.isBlankOrComment($0) }.map(Self.indentation)
    }

    package static func key(_ name: String) -> String {
        name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == "-") } ? name : YAMLScalar.quoted(name)
    }

    /// Adds `block` (a target rendered at the targets' indentation, "\n"-separated) below the
    /// last target of the file's block `targets:` mapping, before the key that follows it.
    package mutating func appendTarget(_ block: String, root: Node) throws(APIError) {
        guard let pairs = root.pairs, let index = pairs.firstIndex(where: { $0.key.scalarText == "targets" }),
              let targets = pairs[index].value.pairs, let last = targets.last else {
            throw error("\(file) has no block targets: mapping to add to")
        }
        let end = blockEnd(of: last.key.mark.line - 1)
        var new = block.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if new.last == "" { new.removeLast() }
        insert(new, after: insertionPoint(after: end, indent: last.key.mark.column - 1))
    }

    /// The edited text, once it decodes as a target file that `holds` accepts; else nothing may
    /// be written, and the error says what the edit would break.
    package func checked(defaultName: String, what: String, holds: (Service) -> Bool) throws(APIError) -> String {
        let text = self.text
        let service: Service
        do throws(APIError) {
            service = try TargetFile.decode(Array(text.utf8), file: file, defaultName: defaultName)
        } catch {
            var diagnostics = [Diagnostic(file: file, mark: nil, message: "\(what) would break the target file; nothing was written",
                                          hint: "the problem it would cause follows")]
            if case .invalidInput(let d) = error { diagnostics += d }
            throw .invalidInput(diagnostics)
        }
        guard holds(service) else {
            throw error("\(what): the file does not hold what was written where it should; nothing was written")
        }
        return text
    }

    // MARK: Lines

    static func indentation(_ line: String) -> Int {
        line.prefix { $0 == " " }.count
    }

    static func isBlankOrComment(_ line: String) -> Bool {
        let rest = line.drop { $0 == " " || $0 == "\t" || $0 == "\r" }
        return rest.isEmpty || rest.first == "#"
    }

    /// The index of the last line of the value of the key on line `index` (0-based): the lines
    /// after it indented deeper than the key, trailing blank and comment lines left out.
    package func blockEnd(of index: Int) -> Int {
        let indent = Self.indentation(lines[index])
        var last = index
        var i = index + 1
        while i < lines.count {
            if Self.isBlankOrComment(lines[i]) { i += 1; continue }
            if Self.indentation(lines[i]) <= indent { break }
            last = i
            i += 1
        }
        return last
    }

    package mutating func replace(_ range: ClosedRange<Int>, with new: [String]) {
        lines.replaceSubrange(range, with: new.map { $0 + cr })
    }

    /// Several edits at once, each a range of the lines as they are now (empty: an insertion
    /// before its start) and the lines to put there, in one pass; ranges must not overlap, and
    /// insertions at one place keep their order.
    package mutating func apply(_ edits: [(range: Range<Int>, lines: [String])]) {
        let sorted = edits.enumerated().sorted { ($0.element.range.lowerBound, $0.element.range.upperBound, $0.offset)
            < ($1.element.range.lowerBound, $1.element.range.upperBound, $1.offset) }.map(\.element)
        var out: [String] = []
        out.reserveCapacity(lines.count)
        var at = 0
        for e in sorted {
            if e.range.lowerBound > at { out += lines[at..<e.range.lowerBound] }
            out += e.lines.map { $0 + cr }
            at = max(at, e.range.upperBound)
        }
        if at < lines.count { out += lines[at...] }
        lines = out
    }

    package mutating func insert(_ new: [String], after index: Int) {
        lines.insert(contentsOf: new.map { $0 + cr }, at: index + 1)
    }

    package func error(_ message: String, line: Int? = nil, hint: String? = nil) -> APIError {
        .invalid(Diagnostic(file: file, mark: line.map { Mark(line: $0 + 1, column: 1) }, message: message, hint: hint))
    }
}
