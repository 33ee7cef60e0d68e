import APISupport
import CLibYAML
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads a large target file in two parts on two threads, libyaml reading each, and joins the
/// trees: the machine's second core halves the time of the parse, the largest part of `list` and
/// `validate` of a file of thousands of targets.
///
/// The file is cut at the start of a line that begins an entry of the root's `targets:` mapping
/// (`targets:` at column 1, entries indented by n ≥ 1 spaces). The first part is read as it is;
/// the second as `targets:` followed by the rest of the file, with its lines counted from where
/// the rest starts. At such a line every deeper block ends, so each part's events are the whole
/// file's events, and the joined tree is the tree of one reading. That is *checked*, not assumed:
/// when any check fails — either part has an error, the cut is not where the parts say it is,
/// a directive, `...`, `<<` at the top, a key of the second part already in the first, more
/// aliased nodes than the limit — the result is nil and the caller reads the file in one piece,
/// which gives the one-reading tree or error by definition.
enum SplitParse {
    /// Files smaller than this are read in one piece (a thread costs more than it saves).
    static let minimumSize = 64 << 10

    package static func parse(_ bytes: [UInt8], limits: YAMLParser.Limits, minimumSize: Int = minimumSize) -> Node? {
        guard case .joined(let root, _, _) = split(bytes, limits: limits, minimumSize: minimumSize, sinks: nil) else { return nil }
        return root
    }

    /// What `parseStreaming` did.
    enum Streamed {
        /// The file was read in two parts, and the entries of its `targets:` mapping went to the sinks
        /// (the first part's to the first, in file order), not into the tree: there that mapping is
        /// empty. `aliases`: an alias was used somewhere.
        case root(Node, aliases: Bool)
        /// The file is to be read in one piece (`YAMLParser.parse(_:limits:onlyTarget:)`'s serial
        /// reading), as `parse` would have done: what the sinks received means nothing.
        case serial
        /// The file was read in two parts, but the entries did not all go to the sinks (an anchor or a
        /// tag on the `targets:` mapping): `parse` reads it.
        case unstreamed
    }

    /// `parse`, each entry of the root's `targets:` mapping handed to a sink as soon as it is read
    /// (the first part's to `first` on this thread, the second part's to `second` on the other) and
    /// then let go, so the whole tree is never in memory: what `list` and `validate` of a file of
    /// thousands of targets need. The checks are `parse`'s, keys written in both parts included.
    /// `cut`: `cut(bytes)`, when already found.
    static func parseStreaming(_ bytes: [UInt8], limits: YAMLParser.Limits, first: TargetEntrySink,
                               second: TargetEntrySink, minimumSize: Int = minimumSize, cut: Cut? = nil) -> Streamed {
        switch split(bytes, limits: limits, minimumSize: minimumSize, sinks: (first, second), cut: cut) {
        case .joined(let root, let streamed, let aliases): return streamed ? .root(root, aliases: aliases) : .unstreamed
        case .failed: return .serial
        }
    }

    private enum Split {
        case joined(Node, streamed: Bool, aliases: Bool)
        case failed
    }

    private static func split(_ bytes: [UInt8], limits: YAMLParser.Limits, minimumSize: Int,
                              sinks: (TargetEntrySink, TargetEntrySink)?, cut known: Cut? = nil) -> Split {
        guard bytes.count >= minimumSize, let cut = known ?? cut(bytes) else { return .failed }
        let secondSink = sinks.map { SendableSink(sink: $0.1) }
        let (first, second) = BothCores.run({ () -> (Node?, YAMLParser) in
            let parser = YAMLParser(bytes: bytes[..<cut.offset], limits: limits)
            parser.sink = sinks?.0
            return ((try? parser.document()) ?? nil, parser)
        }, { () -> Part? in
            let parser = YAMLParser(bytes: bytes[cut.offset...], prefix: Array("targets:\n".utf8), limits: limits)
            parser.sink = secondSink?.sink
            parser.lineOffset = cut.line - 1
            guard let root = (try? parser.document()) ?? nil, !parser.hasDirectives else { return nil }
            return Part(root: root, aliases: parser.aliasCopies, mergesAtTop: parser.mergesAtTop,
                        streamed: parser.streamed, keys: parser.streamedKeys)
        })
        let parser = first.1
        guard let firstRoot = first.0, let second,
              !parser.hasDirectives, !parser.explicitEnd, !parser.mergesAtTop, !second.mergesAtTop,
              parser.aliasCopies + second.aliases <= limits.maxAliasedNodes,
              let end = parser.streamEnd, Int(end.line) == cut.line, end.column == 0,
              // Keys written in both parts are duplicates: one reading says so.
              !overlaps(parser.streamedKeys, second.keys),
              let root = join(firstRoot, second.root, cut: cut)
        else { return .failed }
        return .joined(root, streamed: parser.streamed && second.streamed, aliases: parser.aliasCopies + second.aliases > 0)
    }

    /// What the second part's reading gives back to the first thread.
    private struct Part: Sendable {
        var root: Node
        var aliases: Int
        var mergesAtTop: Bool
        var streamed: Bool
        var keys: [String: Mark]
    }

    /// The second part's sink, used on the second thread only, and read by the first after the join.
    private struct SendableSink: @unchecked Sendable {
        let sink: TargetEntrySink
    }

    /// Where the second part starts: a byte offset just after a line feed and that line's number
    /// from 0 (libyaml's count: CR LF, CR, LF, NEL, LS and PS each end a line), and the column of
    /// the `targets:` entries.
    struct Cut {
        var offset: Int
        var line: Int
        var indent: Int
        /// Where the first entry's line starts.
        var entries: Int
    }

    static func cut(_ bytes: [UInt8]) -> Cut? {
        // UTF-16 (libyaml knows it by its byte-order mark) is read in one piece.
        if bytes.count >= 2, (bytes[0] == 0xFE && bytes[1] == 0xFF) || (bytes[0] == 0xFF && bytes[1] == 0xFE) { return nil }
        let lf = UInt8(ascii: "\n"), space = UInt8(ascii: " ")
        return bytes.withUnsafeBufferPointer { b -> Cut? in
            let count = b.count
            /// The start of the line after the one `i` is in (count if none).
            func nextLine(_ i: Int) -> Int {
                var j = i
                while j < count, b[j] != lf { j += 1 }
                return j + 1
            }
            func spaces(_ i: Int) -> Int {
                var j = i
                while j < count, b[j] == space { j += 1 }
                return j - i
            }
            guard let start = targetsLine(b) else { return nil }
            // The first line after it that holds more than spaces or a comment gives the indent.
            var line = nextLine(start)
            var indent = 0
            while line < count {
                let n = spaces(line)
                if line + n < count, ![lf, UInt8(ascii: "\r"), UInt8(ascii: "#")].contains(b[line + n]) {
                    indent = n
                    break
                }
                line = nextLine(line)
            }
            guard indent >= 1 else { return nil }
            // From the middle on, the first line with exactly that indent and a key's first character.
            var offset = nextLine(max(count / 2, line))
            while offset < count {
                if spaces(offset) == indent, offset + indent < count, isKeyStart(b[offset + indent]) { break }
                offset = nextLine(offset)
            }
            guard offset < count else { return nil }
            return Cut(offset: offset, line: lines(UnsafeBufferPointer(rebasing: b[..<offset])), indent: indent, entries: line)
        }
    }

    /// The entries of the root's `targets:` mapping in each part, counted by lines whose first
    /// character other than a space is at the entries' column (and is no comment): room for what
    /// the sinks of `parseStreaming` receive, an estimate (block scalars may hold such lines; a
    /// flow mapping has fewer), never trusted. nil: not read in two parts.
    static func entryCounts(_ bytes: [UInt8], minimumSize: Int = minimumSize) -> YAMLParser.TargetEntryCounts? {
        guard bytes.count >= minimumSize, let cut = cut(bytes) else { return nil }
        return bytes.withUnsafeBufferPointer { b -> YAMLParser.TargetEntryCounts in
            let count = b.count, indent = cut.indent
            var first = 0, second = 0
            var line = cut.entries
            while line < count {
                var j = line
                while j < count, b[j] == UInt8(ascii: " ") { j += 1 }
                if j - line == indent, j < count, b[j] != UInt8(ascii: "#"), b[j] != UInt8(ascii: "\n"), b[j] != UInt8(ascii: "\r") {
                    if line < cut.offset { first += 1 } else { second += 1 }
                }
                guard let feed = memchr(b.baseAddress! + j, 0x0A, count - j) else { break }
                line = UnsafePointer<UInt8>(feed.assumingMemoryBound(to: UInt8.self)) - b.baseAddress! + 1
            }
            return YAMLParser.TargetEntryCounts(first: first, second: second, cut: cut)
        }
    }

    /// Where the first line that is `targets:` at column 1, then nothing but spaces or a comment, starts.
    static func targetsLine(_ b: UnsafeBufferPointer<UInt8>) -> Int? {
        let lf = UInt8(ascii: "\n"), space = UInt8(ascii: " ")
        let count = b.count
        let word = Array("targets:".utf8)
        var start = 0
        while start < count {
            if start + word.count <= count, b[start] == word[0], Array(b[start..<start + word.count]) == word {
                var j = start + word.count
                while j < count, b[j] == space { j += 1 }
                if j >= count || b[j] == lf || b[j] == UInt8(ascii: "#") || b[j] == UInt8(ascii: "\r") { return start }
            }
            while start < count, b[start] != lf { start += 1 }
            start += 1
        }
        return nil
    }

    static func isKeyStart(_ c: UInt8) -> Bool {
        (c >= UInt8(ascii: "a") && c <= UInt8(ascii: "z")) || (c >= UInt8(ascii: "A") && c <= UInt8(ascii: "Z"))
            || (c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9")) || c == UInt8(ascii: "_")
            || c == UInt8(ascii: "\"") || c == UInt8(ascii: "'")
    }

    /// Line breaks as libyaml counts them. The first part's end, where libyaml says it is, must agree.
    static func lines(_ b: UnsafeBufferPointer<UInt8>) -> Int {
        // Line feeds alone (memchr, a line at a time) unless a byte that may start another break is
        // there; then the exact count below.
        guard let base = b.baseAddress, !b.isEmpty else { return 0 }
        if memchr(base, 0x0D, b.count) == nil, memchr(base, 0xC2, b.count) == nil, memchr(base, 0xE2, b.count) == nil {
            var feeds = 0
            var at = UnsafeRawPointer(base)
            let end = at + b.count
            while at < end, let feed = memchr(at, 0x0A, end - at) {
                feeds += 1
                at = UnsafeRawPointer(feed) + 1
            }
            return feeds
        }
        var n = 0
        var i = 0
        let count = b.count
        while i < count {
            switch b[i] {
            case 0x0A: n += 1
            case 0x0D:
                n += 1
                if i + 1 < count, b[i + 1] == 0x0A { i += 1 }
            case 0xC2 where i + 1 < count && b[i + 1] == 0x85: n += 1
            case 0xE2 where i + 2 < count && b[i + 1] == 0x80 && (b[i + 2] == 0xA8 || b[i + 2] == 0xA9): n += 1
            default: break
            }
            i += 1
        }
        return n
    }

    /// The first part's root with the second part's `targets:` entries and root keys after its own.
    static func join(_ first: Node, _ second: Node, cut: Cut) -> Node? {
        let column = cut.indent + 1
        guard first.tag == nil, second.tag == nil, first.mark.column == 1,
              var rootPairs = first.pairs, let last = rootPairs.last,
              case .scalar(let key) = last.key.content, key.isPlain, key.value == "targets", last.key.tag == nil,
              last.key.mark.column == 1,
              last.value.tag == nil, let firstTargets = last.value.pairs, last.value.mark.column == column,
              let secondPairs = second.pairs, let head = secondPairs.first, head.key.scalarText == "targets",
              head.value.tag == nil, let secondTargets = head.value.pairs,
              head.value.mark == Mark(line: cut.line + 1, column: column)
        else { return nil }
        // A key of the second part written in the first is a duplicate: one reading says so.
        guard !overlaps(firstTargets, secondTargets), !overlaps(rootPairs, secondPairs.dropFirst()) else { return nil }
        var targets = last.value
        targets.content = .mapping(firstTargets + secondTargets)
        rootPairs[rootPairs.count - 1].value = targets
        rootPairs += secondPairs.dropFirst()
        var root = first
        root.content = .mapping(rootPairs)
        return root
    }

    static func overlaps(_ a: [Node.Pair], _ b: ArraySlice<Node.Pair>) -> Bool {
        if b.isEmpty { return false }
        var keys = Set<String>(minimumCapacity: a.count)
        for pair in a { if let t = pair.key.scalarText { keys.insert(t) } }
        return b.contains { $0.key.scalarText.map(keys.contains) ?? false }
    }

    static func overlaps(_ a: [Node.Pair], _ b: [Node.Pair]) -> Bool { overlaps(a, b[...]) }

    /// Keys in both (the entries each part's sink received).
    static func overlaps(_ a: [String: Mark], _ b: [String: Mark]) -> Bool {
        let (small, large) = a.count <= b.count ? (a, b) : (b, a)
        return small.keys.contains { large[$0] != nil }
    }
}
