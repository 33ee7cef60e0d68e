import APIYAML
import APIDiagnostics
import APITargets
import APITransport
/// `record`'s edit of a target file: a response written as the target's `sample:` or as an
/// entry of its `samples:` (a flow-style target is unfolded first).
extension TargetFileEditor {
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

}
