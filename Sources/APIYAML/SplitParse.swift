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
        guard bytes.count >= minimumSize, let cut = cut(bytes) else { return nil }
        let (first, second) = BothCores.run({ () -> (Node?, YAMLParser) in
            let parser = YAMLParser(bytes: bytes[..<cut.offset], limits: limits)
            return ((try? parser.document()) ?? nil, parser)
        }, { () -> (Node, Int, Bool)? in
            let parser = YAMLParser(bytes: bytes[cut.offset...], prefix: Array("targets:\n".utf8), limits: limits)
            parser.lineOffset = cut.line - 1
            guard let root = (try? parser.document()) ?? nil, !parser.hasDirectives else { return nil }
            return (root, parser.aliasCopies, parser.mergesAtTop)
        })
        let parser = first.1
        guard let firstRoot = first.0, let (secondRoot, secondAliases, secondMerges) = second,
              !parser.hasDirectives, !parser.explicitEnd, !parser.mergesAtTop, !secondMerges,
              parser.aliasCopies + secondAliases <= limits.maxAliasedNodes,
              let end = parser.streamEnd, Int(end.line) == cut.line, end.column == 0
        else { return nil }
        return join(firstRoot, secondRoot, cut: cut)
    }

    /// Where the second part starts: a byte offset just after a line feed and that line's number
    /// from 0 (libyaml's count: CR LF, CR, LF, NEL, LS and PS each end a line), and the column of
    /// the `targets:` entries.
    struct Cut {
        var offset: Int
        var line: Int
        var indent: Int
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
            // `targets:` at the start of a line, then nothing but spaces or a comment.
            var start = 0
            var found = false
            let word = Array("targets:".utf8)
            while start < count {
                if start + word.count <= count, b[start] == word[0], Array(b[start..<start + word.count]) == word {
                    var j = start + word.count
                    while j < count, b[j] == space { j += 1 }
                    if j >= count || b[j] == lf || b[j] == UInt8(ascii: "#") || b[j] == UInt8(ascii: "\r") { found = true; break }
                }
                start = nextLine(start)
            }
            guard found else { return nil }
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
            return Cut(offset: offset, line: lines(UnsafeBufferPointer(rebasing: b[..<offset])), indent: indent)
        }
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
}
