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
        if pair.value.pairs != nil, startsFlow(pair.value.mark) {
            // A flow-style target becomes an indented mapping first, then gets its sample as any other.
            if try unfold(target, name: name) {
                let unfolded: Node?
                do { unfolded = try YAMLParser.parse(Array(text.utf8), onlyTarget: target) } catch {
                    throw .invalid(Diagnostic(file: file, error))
                }
                guard let unfolded,
                      let again = unfolded.pairs?.first(where: { $0.key.scalarText == "targets" })?.value.pairs?
                        .first(where: { $0.key.scalarText == target }),
                      Self.same(again.value, pair.value) else {
                    throw error("record cannot rewrite \(target) from flow style without changing what it says", line: keyLine,
                                hint: "write the target as an indented mapping, one key a line, and record again")
                }
                return try write(sample, name: name, target: target, root: unfolded, sideFile: sideFile)
            }
        }
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

    // MARK: Flow-style targets

    /// Whether the node marked at `mark` may be a flow collection: its text starts with `{`, or an
    /// anchor or tag that may stand before one (`TargetSpan` tells for sure).
    private func startsFlow(_ mark: Mark) -> Bool {
        guard mark.line - 1 < lines.count else { return false }
        let line = lines[mark.line - 1].unicodeScalars
        guard let at = line.index(line.startIndex, offsetBy: mark.column - 1, limitedBy: line.endIndex), at < line.endIndex else { return false }
        return line[at] == "{" || line[at] == "&" || line[at] == "!"
    }

    /// Rewrites the target written in flow style (`t: { path: /x, method: POST }`, on one line or
    /// several) as an indented mapping: its key line keeps the key (and a comment trailing the
    /// `}`), then each entry on a line of its own at the key's indentation + 2, key and value as
    /// their source text. Nothing else changes. False when the target is not a flow mapping;
    /// throws when its text holds what cannot be carried over safely.
    private mutating func unfold(_ target: String, name: String?) throws(APIError) -> Bool {
        guard let span = TargetSpan.find(target, in: Array(text.utf8)), span.isFlowMapping else { return false }
        let file = self.file
        let refuse = { (why: String, at: Mark, hint: String) -> APIError in
            .invalid(Diagnostic(file: file, mark: at,
                                message: "record cannot rewrite \(target) from flow style: \(why)", hint: hint))
        }
        let block = "write \(target) as an indented mapping, one key a line, and record again"
        if let anchor = span.anchor {
            throw refuse("its mapping carries an anchor (&\(anchor)) that would have to move", span.start,
                         "put the anchor on the key's line of an indented mapping (\(target): &\(anchor), one key a line under it) and record again")
        }
        if span.tag != nil {
            let written = slice(span.start, Mark(line: span.start.line, column: span.end.line == span.start.line ? span.end.column : Int.max / 2))
                .prefix { $0 != " " && $0 != "{" }
            throw refuse("its mapping carries a tag (\(written)) that would have to move", span.start,
                         "put the tag on the key's line of an indented mapping (\(target): \(written), one key a line under it) and record again")
        }
        let keyLine = span.keyStart.line - 1
        let keyPrefix = slice(Mark(line: span.keyStart.line, column: 1), span.keyStart)
        guard keyPrefix.allSatisfy({ $0 == " " }) else {
            throw refuse("it shares its line with another key (targets: or the target is written in flow style)",
                         span.keyStart, "write targets: as an indented mapping, one target a line, and record again")
        }
        let between = slice(span.keyEnd, span.start)
        guard between.first == ":", between.dropFirst().allSatisfy({ $0 == " " || $0 == "\n" || $0 == "\r" || $0 == "\t" }) else {
            throw refuse("something stands between its key and its { }", span.keyEnd, block)
        }
        // Between the entries there are only `{`, `}`, `,`, `:` and white space, unless a comment.
        var gaps: [(Mark, Mark)] = []
        var from = span.start
        for e in span.entries {
            gaps.append((from, e.keyStart))
            gaps.append((e.keyEnd, e.valueIsEmpty ? e.keyEnd : e.valueStart))
            from = e.valueIsEmpty ? e.keyEnd : e.valueEnd
        }
        gaps.append((from, span.end))
        for (a, b) in gaps {
            let gap = slice(a, b)
            if let hash = gap.firstIndex(of: "#") {
                let before = gap[..<hash]
                let line = a.line + before.filter { $0 == "\n" }.count
                let column = before.contains("\n") ? before.split(separator: "\n", omittingEmptySubsequences: false).last!.unicodeScalars.count + 1
                                                    : a.column + before.unicodeScalars.count
                throw refuse("a comment inside its { } would be lost", Mark(line: line, column: column),
                             "move the comment above the target, or " + block)
            }
        }
        let endLine = span.end.line - 1
        let endText = lines[endLine].hasSuffix("\r") ? String(lines[endLine].dropLast()) : lines[endLine]
        let tail = String(endText.unicodeScalars.dropFirst(span.end.column - 1)).drop { $0 == " " || $0 == "\t" }
        guard tail.isEmpty || tail.first == "#" else {
            throw refuse("something follows its } on the same line", span.end, block)
        }
        let indent = String(repeating: " ", count: span.keyStart.column - 1 + 2)
        var new = [slice(Mark(line: span.keyStart.line, column: 1), span.keyEnd) + ":" + (tail.isEmpty ? "" : " " + tail)]
        for e in span.entries {
            let key = slice(e.keyStart, e.keyEnd)
            let value = e.valueIsEmpty ? "" : slice(e.valueStart, e.valueEnd)
            if name != nil, key == "samples", value.hasPrefix("{") {
                throw refuse("its samples: is in flow style too, and --sample writes into an indented samples: mapping",
                             e.valueStart, "write \(target) and its samples: as indented mappings, one key a line, and record again")
            }
            if key.contains("\n") || value.contains("\n") {
                throw refuse("the value of its entry \(key.split(separator: "\n").first.map(String.init) ?? "") spans lines",
                             e.valueIsEmpty ? e.keyStart : e.valueStart,
                             "write each entry of the { } on one line, or " + block)
            }
            new.append(indent + key + ":" + (value.isEmpty ? "" : " " + value))
        }
        replace(keyLine...endLine, with: new)
        return true
    }

    /// The text from `a` up to `b` (marks as libyaml gives them), lines joined by "\n" (no "\r").
    private func slice(_ a: Mark, _ b: Mark) -> String {
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
    static func same(_ a: Node, _ b: Node) -> Bool {
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
