/// Edits a target file's text in place, by lines: only the lines of the sample being written
/// change; every other byte (comments, anchors, key order, blank lines, line endings) stays.
/// Where a node ends comes from indentation: a block value runs over the lines indented deeper
/// than its key (blank and comment lines included, except those trailing it, which belong to
/// what follows).
struct TargetFileEditor {
    private(set) var lines: [String]
    /// "\r" when the file's lines end in CRLF (kept on every line written).
    private let cr: String
    private let file: String

    init(text: String, file: String) {
        // Split on the byte: in a String "\r\n" is one Character, not a "\r" before a "\n".
        var lines = text.utf8.split(separator: 10, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
        if lines.last == "" { lines.removeLast() }
        self.lines = lines
        cr = lines.first?.hasSuffix("\r") == true ? "\r" : ""
        self.file = file
    }

    var text: String { lines.map { $0 + "\n" }.joined() }

    /// Writes `sample` as the target's `sample:` (name nil) or as `samples: name:`, replacing the
    /// one there; `root` is the file parsed, for the keys' marks.
    mutating func write(_ sample: RecordedSample, name: String?, target: String, root: Node, sideFile: String?) throws(APIError) {
        guard let targets = root.pairs?.first(where: { $0.key.scalarText == "targets" })?.value,
              let pair = targets.pairs?.first(where: { $0.key.scalarText == target }) else {
            throw error("no target '\(target)' under targets: in the file")
        }
        let keyLine = pair.key.mark.line - 1
        let end = blockEnd(of: keyLine)
        guard pair.value.pairs != nil, end > keyLine, let indent = childIndentation(after: keyLine) else {
            throw error("record writes into targets written as indented mappings; \(target) is not one", line: keyLine,
                        hint: "write the target with one key a line under it")
        }
        let own = members(of: pair.value, in: keyLine + 1...end, indent: indent)
        guard let name else {
            let new = SampleYAML.lines(sample, key: "sample", indent: indent, file: sideFile)
            if let old = own.first(where: { $0.key.scalarText == "sample" }) {
                let line = old.key.mark.line - 1
                replace(line...blockEnd(of: line), with: new)
            } else {
                insert(new, after: insertionPoint(after: end, indent: indent))
            }
            return
        }
        let key = Self.key(name)
        guard let samples = own.first(where: { $0.key.scalarText == "samples" }) else {
            insert([String(repeating: " ", count: indent) + "samples:"]
                   + SampleYAML.lines(sample, key: key, indent: indent + 2, file: sideFile),
                   after: insertionPoint(after: end, indent: indent))
            return
        }
        let line = samples.key.mark.line - 1
        let samplesEnd = blockEnd(of: line)
        guard samples.value.pairs != nil, samplesEnd > line, let inner = childIndentation(after: line) else {
            throw error("record writes into samples: written as an indented mapping; this one is not", line: line,
                        hint: "write samples: with one sample name a line under it")
        }
        let new = SampleYAML.lines(sample, key: key, indent: inner, file: sideFile)
        if let old = members(of: samples.value, in: line + 1...samplesEnd, indent: inner).first(where: { $0.key.scalarText == name }) {
            let at = old.key.mark.line - 1
            replace(at...blockEnd(of: at), with: new)
        } else {
            insert(new, after: insertionPoint(after: samplesEnd, indent: inner))
        }
    }

    /// Where a new key at `indent` goes after a block ending at `end`: after the comment lines
    /// that follow it indented as deep as the new key (they belong to the block), before blank lines.
    private func insertionPoint(after end: Int, indent: Int) -> Int {
        var at = end
        while at + 1 < lines.count, Self.isBlankOrComment(lines[at + 1]),
              lines[at + 1].contains("#"), Self.indentation(lines[at + 1]) >= indent {
            at += 1
        }
        return at
    }

    /// The pairs of a block mapping whose keys stand in `range` at `indent`: a merge key's
    /// copies (whose marks are elsewhere) are not the mapping's own lines.
    private func members(of node: Node, in range: ClosedRange<Int>, indent: Int) -> [Node.Pair] {
        (node.pairs ?? []).filter { range.contains($0.key.mark.line - 1) && $0.key.mark.column - 1 == indent }
    }

    /// The indentation of the first line after `index` that is not blank or a comment.
    private func childIndentation(after index: Int) -> Int? {
        lines[(index + 1)...].first { !Self.isBlankOrComment($0) }.map(Self.indentation)
    }

    static func key(_ name: String) -> String {
        name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == "-") } ? name : SampleYAML.quoted(name)
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
    func blockEnd(of index: Int) -> Int {
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

    mutating func replace(_ range: ClosedRange<Int>, with new: [String]) {
        lines.replaceSubrange(range, with: new.map { $0 + cr })
    }

    mutating func insert(_ new: [String], after index: Int) {
        lines.insert(contentsOf: new.map { $0 + cr }, at: index + 1)
    }

    func error(_ message: String, line: Int? = nil, hint: String? = nil) -> APIError {
        .invalid(Diagnostic(file: file, mark: line.map { Mark(line: $0 + 1, column: 1) }, message: message, hint: hint))
    }
}
