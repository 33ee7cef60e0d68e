import APISupport
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads one entry of the root's `targets:` mapping without libyaml reading the others: what
/// `call` and `show` need from a file of thousands of targets (a byte scan of the lines instead of
/// libyaml's events for every target).
///
/// A scan of the file's lines (no libyaml) finds the root's `targets:` line (column 1, nothing after
/// it but a comment), the entry lines of its mapping (indent n ≥ 1, a plain key of letters, digits,
/// `_` and `-` followed by `:`), the named entry's lines (up to the next entry or the first line at
/// column 1 that is not blank or a comment, where the root keys after the mapping start). libyaml
/// then reads the lines before `targets:`, that line, the named entry, the `x-` entries (the place
/// for shared blocks and their anchors; left out of the tree after) and the root keys after the
/// mapping, with marks shifted by the lines left out, so every FILE:LINE:COL is the file's.
///
/// The tree is the one a reading of the whole file gives with `onlyTarget` (see `YAMLParser.parse`);
/// that is *checked*, not assumed. Every line but the root keys after the mapping (libyaml reads
/// those) is read by a small lexer that accepts it only when no quoted scalar or flow collection
/// it starts runs on to another line (so each line starts in block context and the entry lines are
/// where the indents say); the scan gives up on tabs in indentation, `? ` and `: ` keys,
/// directives, `---`/`...` after `targets:`, a byte-order mark, CR without LF, NEL, LS and PS, and
/// a line that may nest collections as deep as `Limits.maxDepth`. The result is nil — and the
/// caller reads the whole file, which gives the one-reading tree or error by definition — when the
/// name is not among the entries, any two entries share a name (one reading's duplicate-key
/// error), libyaml or the tree builder reports an error in the parts read (an alias whose anchor
/// is left out, a duplicate root key), an alias names an anchor also written in a part left out,
/// or the tree's `targets` key and entries are not at the lines and columns the scan found.
///
/// What only a whole reading sees: YAML syntax errors *inside other entries* that leave each line
/// closed (a bad indent, `a: b: c`, invalid UTF-8 or control characters, the limit on nodes aliases copy).
/// Like a decoding mistake in another target, they do not block this one; `validate` reports them.
enum OneTargetParse {
    /// Where the parts are: byte offsets into the file and line numbers from 0 (libyaml's count).
    struct Plan: Equatable {
        /// The end of the `targets:` line, after its line break; the line's number.
        var headEnd: Int
        var targetsLine: Int
        /// The entries read, in the file's order: the named one and every `x-` entry (where shared
        /// blocks and their anchors live); each as its bytes (whole lines) and its first and end lines.
        var parts: [Part]
        /// Which of `parts` is the named entry.
        var entry: Int
        /// Where the root keys after the mapping start (the file's end when there are none).
        var tailStart: Int
        var tailLine: Int
        /// The first entry's line and the entries' indent.
        var firstEntryLine: Int
        var indent: Int

        struct Part: Equatable {
            var start: Int
            var end: Int
            var line: Int
            var endLine: Int
        }

        /// The byte ranges libyaml does not read: between `targets:`, the parts and the tail.
        var gaps: [Range<Int>] {
            var out: [Range<Int>] = []
            var at = headEnd
            for part in parts {
                if part.start > at { out.append(at..<part.start) }
                at = part.end
            }
            if tailStart > at { out.append(at..<tailStart) }
            return out
        }
    }

    package static func parse(_ bytes: [UInt8], target: String, limits: YAMLParser.Limits) -> Node? {
        bytes.withUnsafeBufferPointer { parse($0, target: target, limits: limits) }
    }

    /// `parse` of bytes in place (a file mapped into memory: nothing is copied but the parts read).
    package static func parse(_ bytes: UnsafeBufferPointer<UInt8>, target: String, limits: YAMLParser.Limits) -> Node? {
        guard let plan = plan(bytes, target: Array(target.utf8), maxDepth: limits.maxDepth) else { return nil }
        var text: [UInt8] = []
        text.reserveCapacity(plan.headEnd + plan.parts.reduce(0) { $0 + $1.end - $1.start } + (bytes.count - plan.tailStart))
        text += bytes[..<plan.headEnd]
        // Each part's lines, and the tail's, shifted to where they are in the file.
        var shifts: [(from: Int, by: Int)] = []
        var line = plan.targetsLine + 1
        for part in plan.parts {
            text += bytes[part.start..<part.end]
            shifts.append((line, part.line - line))
            line += part.endLine - part.line
        }
        text += bytes[plan.tailStart...]
        shifts.append((line, plan.tailLine - line))
        let parser = YAMLParser(bytes: text[...], limits: limits)
        parser.lineShifts = shifts
        parser.usedAliases = []
        guard let root = (try? parser.document()) ?? nil, !parser.hasDirectives, !parser.explicitEnd,
              var pairs = root.pairs, root.tag == nil
        else { return nil }
        // An alias whose anchor is (also) written in a part left out may mean another node there.
        if let used = parser.usedAliases, !used.isEmpty {
            let gaps = plan.gaps
            for name in used where gaps.contains(where: { mentions(bytes, $0, "&" + name) }) { return nil }
        }
        // The scan's `targets:` key and entries are the tree's.
        guard let at = pairs.firstIndex(where: { $0.key.mark == Mark(line: plan.targetsLine + 1, column: 1) }),
              case .scalar(let key) = pairs[at].key.content, key.isPlain, key.value == "targets", pairs[at].key.tag == nil,
              pairs[at].value.tag == nil, let entries = pairs[at].value.pairs, entries.count == plan.parts.count
        else { return nil }
        for (k, entry) in entries.enumerated() {
            guard case .scalar(let name) = entry.key.content, name.isPlain, entry.key.tag == nil,
                  k == plan.entry ? name.value == target : name.value.hasPrefix("x-"),
                  entry.key.mark == Mark(line: plan.parts[k].line + 1, column: plan.indent + 1)
            else { return nil }
        }
        // One reading with `onlyTarget` leaves the other entries out; its mapping starts at the first entry.
        pairs[at].value.content = .mapping([entries[plan.entry]])
        pairs[at].value.mark = Mark(line: plan.firstEntryLine + 1, column: plan.indent + 1)
        var out = root
        out.content = .mapping(pairs)
        return out
    }

    private static func mentions(_ b: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, _ needle: String) -> Bool {
        let n = Array(needle.utf8)
        guard !range.isEmpty else { return false }
        // memchr for the first byte, then the rest (Glibc's memmem needs _GNU_SOURCE).
        let base = UnsafeRawPointer(b.baseAddress!)
        var at = base + range.lowerBound
        let end = base + range.upperBound
        while end - at >= n.count, let p = memchr(at, Int32(n[0]), end - at) {
            let found = UnsafeRawPointer(p)
            if end - found >= n.count, memcmp(found, n, n.count) == 0 { return true }
            at = found + 1
        }
        return false
    }

    // MARK: The scan

    private static let lf = UInt8(ascii: "\n"), cr = UInt8(ascii: "\r"), space = UInt8(ascii: " "), tab = UInt8(ascii: "\t")
    private static let hash = UInt8(ascii: "#"), colon = UInt8(ascii: ":")

    /// Where the parts are, or nil when the scan cannot show it (see the type's comment).
    static func plan(_ bytes: [UInt8], target: [UInt8], maxDepth: Int = YAMLParser.Limits().maxDepth) -> Plan? {
        bytes.withUnsafeBufferPointer { plan($0, target: target, maxDepth: maxDepth) }
    }

    static func plan(_ b: UnsafeBufferPointer<UInt8>, target: [UInt8], maxDepth: Int) -> Plan? {
        guard !target.isEmpty, target.allSatisfy(isNameByte), let base = b.baseAddress, b.count > 0,
              b.count < Int(UInt32.max) else { return nil }
        let count = b.count
        // A byte-order mark (UTF-8 or UTF-16), and breaks other than LF and CR LF: one reading.
        if count >= 2, (b[0] == 0xFE && b[1] == 0xFF) || (b[0] == 0xFF && b[1] == 0xFE) || b[0] == 0xEF { return nil }
        if !onlyLineFeeds(base, count) { return nil }
        var scanner = Scanner(b: b, count: count, maxDepth: maxDepth)
        return scanner.run(target: target)
    }

    static func isNameByte(_ c: UInt8) -> Bool {
        (c >= UInt8(ascii: "a") && c <= UInt8(ascii: "z")) || (c >= UInt8(ascii: "A") && c <= UInt8(ascii: "Z"))
            || (c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9")) || c == UInt8(ascii: "_") || c == UInt8(ascii: "-")
    }

    /// No line break but LF and CR LF (libyaml also breaks lines at a lone CR, NEL, LS and PS).
    private static func onlyLineFeeds(_ base: UnsafePointer<UInt8>, _ count: Int) -> Bool {
        let end = UnsafeRawPointer(base) + count
        var at = UnsafeRawPointer(base)
        while at < end, let p = memchr(at, 0x0D, end - at) {
            let next = UnsafeRawPointer(p) + 1
            if next >= end || next.load(as: UInt8.self) != 0x0A { return false }
            at = next
        }
        at = UnsafeRawPointer(base)
        while at < end, let p = memchr(at, 0xC2, end - at) {
            let next = UnsafeRawPointer(p) + 1
            if next < end, next.load(as: UInt8.self) == 0x85 { return false }
            at = next
        }
        at = UnsafeRawPointer(base)
        while at < end, let p = memchr(at, 0xE2, end - at) {
            let next = UnsafeRawPointer(p) + 1
            if next + 1 < end, next.load(as: UInt8.self) == 0x80,
               next.load(fromByteOffset: 1, as: UInt8.self) == 0xA8 || next.load(fromByteOffset: 1, as: UInt8.self) == 0xA9 { return false }
            at = next
        }
        return true
    }

    /// The lines of the file, one at a time.
    private struct Scanner {
        let b: UnsafeBufferPointer<UInt8>
        let count: Int
        /// `YAMLParser.Limits.maxDepth`: a line that may nest as deep is read by one reading (its error).
        let maxDepth: Int
        /// The current line's start, its end (before CR LF or LF), the next line's start, its number.
        var start = 0
        var end = 0
        var next = 0
        var line = 0

        init(b: UnsafeBufferPointer<UInt8>, count: Int, maxDepth: Int) {
            self.b = b
            self.count = count
            self.maxDepth = maxDepth
        }

        /// Moves to the line that starts at `next` (false at the end of the file).
        mutating func advance(first: Bool = false) -> Bool {
            if !first { line += 1 }
            start = next
            guard start < count else { return false }
            if let p = memchr(b.baseAddress! + start, 0x0A, count - start) {
                let feed = UnsafePointer<UInt8>(p.assumingMemoryBound(to: UInt8.self)) - b.baseAddress!
                next = feed + 1
                end = feed > start && b[feed - 1] == cr ? feed - 1 : feed
            } else {
                end = count
                next = count
            }
            return true
        }

        mutating func run(target: [UInt8]) -> Plan? {
            // The root's `targets:` line; the lines before it leave nothing open either.
            var moved = advance(first: true)
            while moved {
                if isTargetsLine() { break }
                var i = start
                while i < end, b[i] == space { i += 1 }
                if i < end, b[i] == tab { return nil }
                if i < end, b[i] != hash, !lex(from: i) { return nil }
                moved = advance()
            }
            guard moved, next < count else { return nil }
            let headEnd = next
            let targetsLine = line
            var indent = 0
            var firstEntryLine = -1
            let names = NameSet(bytes: count)
            /// Every entry's start and line; which of them are read (the named one and `x-` ones).
            var starts: [Int] = [], lines: [Int] = [], read: [Int] = []
            var entry: Int?
            var tail: (offset: Int, line: Int) = (count, -1)
            while advance() {
                var i = start
                while i < end, b[i] == space { i += 1 }
                if i < end, b[i] == tab { return nil }
                if i == end || b[i] == hash { continue }  // blank, or a comment
                let n = i - start
                if n == 0 {
                    // The root keys after the mapping (a document marker: one reading).
                    if end - start >= 3, (b[start] == UInt8(ascii: "-") && b[start + 1] == UInt8(ascii: "-") && b[start + 2] == UInt8(ascii: "-"))
                        || (b[start] == UInt8(ascii: ".") && b[start + 1] == UInt8(ascii: ".") && b[start + 2] == UInt8(ascii: ".")) {
                        return nil
                    }
                    tail = (start, line)
                    break
                }
                if indent == 0 { indent = n }
                if n < indent { return nil }
                let lexed: Bool
                if n == indent {
                    // An entry: `name:` and a value on the line or below.
                    var k = i
                    while k < end, isNameByte(b[k]) { k += 1 }
                    guard k > i, k < end, b[k] == colon, k + 1 == end || b[k + 1] == space || b[k + 1] == tab else { return nil }
                    if firstEntryLine < 0 { firstEntryLine = line }
                    guard names.insert(b, i, k - i) else { return nil }  // a duplicate: one reading's error
                    if k - i == target.count, memcmp(b.baseAddress! + i, target, target.count) == 0 {
                        entry = read.count
                        read.append(starts.count)
                    } else if k - i > 2, b[i] == UInt8(ascii: "x"), b[i + 1] == UInt8(ascii: "-") {
                        read.append(starts.count)
                    }
                    starts.append(start)
                    lines.append(line)
                    lexed = lex(from: k + 1)
                } else {
                    lexed = lex(from: i)
                }
                if !lexed { return nil }
            }
            guard let entry, indent > 0 else { return nil }
            if tail.line < 0 { tail.line = line }
            let parts = read.map { k in
                k + 1 < starts.count ? Plan.Part(start: starts[k], end: starts[k + 1], line: lines[k], endLine: lines[k + 1])
                    : Plan.Part(start: starts[k], end: tail.offset, line: lines[k], endLine: tail.line)
            }
            return Plan(headEnd: headEnd, targetsLine: targetsLine, parts: parts, entry: entry, tailStart: tail.offset,
                        tailLine: tail.line, firstEntryLine: firstEntryLine, indent: indent)
        }

        /// `targets:` at column 1, then nothing but spaces and a comment.
        func isTargetsLine() -> Bool {
            let word: StaticString = "targets:"
            let n = word.utf8CodeUnitCount
            guard end - start >= n, memcmp(b.baseAddress! + start, word.utf8Start, n) == 0 else { return false }
            var i = start + n
            while i < end, b[i] == space || b[i] == tab { i += 1 }
            return i == end || (b[i] == hash && i > start + n)
        }

        func isBlank(_ i: Int) -> Bool { i >= end || b[i] == space || b[i] == tab }

        /// Reads the rest of the line from `first` as block-context tokens: true when nothing it
        /// starts runs on to the next line; false when a quoted scalar or flow collection is not
        /// closed on the line or the line holds what the lexer does not follow (explicit keys,
        /// stray indicators). A block scalar's lines after its header are read the same way: they
        /// are text, so whatever the lexer makes of them, they open nothing (false only costs speed).
        /// The entry's lines are kept whole up to the next entry, blank lines and comments too,
        /// so a kept (`|+`) block scalar at its end counts the same trailing lines as one reading.
        func lex(from first: Int) -> Bool {
            var i = first
            while true {
                while i < end, b[i] == space || b[i] == tab { i += 1 }
                if i == end || b[i] == hash { return true }
                // A block collection at column c is at most 2c + 1 deep (an indentless sequence adds
                // a level without a column): past the limit, one reading says where.
                if 2 * (i - start) + 1 >= maxDepth { return false }
                let c = b[i]
                switch c {
                case UInt8(ascii: "-") where isBlank(i + 1):
                    i += 1
                    continue
                case UInt8(ascii: "?") where isBlank(i + 1), UInt8(ascii: ":") where isBlank(i + 1):
                    return false
                case UInt8(ascii: "&"), UInt8(ascii: "!"), UInt8(ascii: "*"):
                    while i < end, b[i] != space, b[i] != tab { i += 1 }
                    continue
                case UInt8(ascii: "|"), UInt8(ascii: ">"):
                    i += 1
                    while i < end, b[i] == UInt8(ascii: "+") || b[i] == UInt8(ascii: "-") || (b[i] >= UInt8(ascii: "0") && b[i] <= UInt8(ascii: "9")) {
                        i += 1
                    }
                    guard isBlank(i) else { return false }
                    while i < end, b[i] == space || b[i] == tab { i += 1 }
                    guard i == end || b[i] == hash else { return false }
                    return true
                case UInt8(ascii: "\""), UInt8(ascii: "'"), UInt8(ascii: "["), UInt8(ascii: "{"):
                    let close: Int?
                    switch c {
                    case UInt8(ascii: "\""): close = closeDouble(i)
                    case UInt8(ascii: "'"): close = closeSingle(i)
                    default: close = closeFlow(i, depthLeft: maxDepth - 2 * (i - start) - 1)
                    }
                    guard let after = close else { return false }
                    i = after
                    while i < end, b[i] == space || b[i] == tab { i += 1 }
                    if i == end || b[i] == hash { return true }
                    guard b[i] == colon, isBlank(i + 1) else { return false }
                    i += 1
                    continue
                case UInt8(ascii: "]"), UInt8(ascii: "}"), UInt8(ascii: ","), UInt8(ascii: "%"), UInt8(ascii: "@"), UInt8(ascii: "`"):
                    return false
                default:
                    // A plain scalar: up to `: ` (it was a key) or ` #` or the line's end.
                    var j = i + 1
                    while j < end {
                        let d = b[j]
                        if d == colon, isBlank(j + 1) { break }
                        if d == hash, b[j - 1] == space || b[j - 1] == tab { return true }
                        j += 1
                    }
                    if j >= end { return true }
                    i = j + 1
                    continue
                }
            }
        }

        /// After the closing `"` (escapes skipped), or nil when it is not on this line.
        func closeDouble(_ open: Int) -> Int? {
            var i = open + 1
            while i < end {
                if b[i] == UInt8(ascii: "\\") { i += 2; continue }
                if b[i] == UInt8(ascii: "\"") { return i + 1 }
                i += 1
            }
            return nil
        }

        /// After the closing `'` (`''` is a quote inside), or nil.
        func closeSingle(_ open: Int) -> Int? {
            var i = open + 1
            while i < end {
                if b[i] == UInt8(ascii: "'") {
                    if i + 1 < end, b[i + 1] == UInt8(ascii: "'") { i += 2; continue }
                    return i + 1
                }
                i += 1
            }
            return nil
        }

        /// After the bracket that closes the flow collection opened at `open`, or nil when it is not
        /// on this line or a quote stands where it may or may not start a quoted scalar.
        /// Also nil when the collections nest `depthLeft` deep.
        func closeFlow(_ open: Int, depthLeft: Int) -> Int? {
            var depth = 0
            var i = open
            /// At the start of a node: a quote here starts a quoted scalar.
            var tokenStart = true
            /// Just after a quoted scalar or a closed collection: `:` right here is the value indicator.
            var afterNode = false
            while i < end {
                let c = b[i]
                let wasAfterNode = afterNode
                afterNode = false
                switch c {
                case UInt8(ascii: "["), UInt8(ascii: "{"):
                    depth += 1
                    if depth >= depthLeft { return nil }
                    tokenStart = true
                    i += 1
                case UInt8(ascii: "]"), UInt8(ascii: "}"):
                    depth -= 1
                    i += 1
                    if depth == 0 { return i }
                    tokenStart = false
                    afterNode = true
                case UInt8(ascii: ","):
                    tokenStart = true
                    i += 1
                case space, tab:
                    i += 1
                case hash where i > open && (b[i - 1] == space || b[i - 1] == tab):
                    return nil  // a comment: the collection goes on below
                case colon:
                    if tokenStart || wasAfterNode || isBlank(i + 1) { tokenStart = true } else { tokenStart = false }
                    i += 1
                case UInt8(ascii: "?") where tokenStart && isBlank(i + 1):
                    i += 1
                case UInt8(ascii: "&") where tokenStart, UInt8(ascii: "!") where tokenStart:
                    while i < end, !isBlank(i), !isFlowIndicator(b[i]) { i += 1 }
                case UInt8(ascii: "\""), UInt8(ascii: "'"):
                    guard tokenStart, let after = c == UInt8(ascii: "\"") ? closeDouble(i) : closeSingle(i) else { return nil }
                    i = after
                    tokenStart = false
                    afterNode = true
                default:
                    tokenStart = false
                    i += 1
                }
            }
            return nil
        }

        func isFlowIndicator(_ c: UInt8) -> Bool {
            c == UInt8(ascii: ",") || c == UInt8(ascii: "[") || c == UInt8(ascii: "]") || c == UInt8(ascii: "{") || c == UInt8(ascii: "}")
        }
    }

    /// Entry names seen, by their bytes in the file (open addressing, no String a name; the file
    /// outlives the scan).
    private final class NameSet {
        /// Per slot: the name's start + 1 (0: empty) and its hash; a name ends at its `:`.
        private var starts: UnsafeMutablePointer<UInt32>
        private var hashes: UnsafeMutablePointer<UInt32>
        private var capacity: Int
        private var used = 0

        /// `bytes`: the file's size; room for a name every 256 bytes before the first growth.
        init(bytes: Int) {
            capacity = 1024
            while capacity < bytes / 128 { capacity *= 2 }
            starts = .allocate(capacity: capacity)
            starts.initialize(repeating: 0, count: capacity)
            hashes = .allocate(capacity: capacity)
        }

        deinit {
            starts.deallocate()
            hashes.deallocate()
        }

        /// false when the name is already in.
        func insert(_ b: UnsafeBufferPointer<UInt8>, _ start: Int, _ length: Int) -> Bool {
            if (used + 1) * 2 > capacity { grow(b) }
            // Swift's hasher, seeded per process: a file cannot be written so that its names share
            // slots (with a fixed hash such as FNV it can, and each insert then walks them all).
            var hasher = Hasher()
            hasher.combine(bytes: UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: b[start..<start + length])))
            return insert(b, start, length, UInt32(truncatingIfNeeded: hasher.finalize()))
        }

        private func insert(_ b: UnsafeBufferPointer<UInt8>, _ start: Int, _ length: Int, _ h: UInt32) -> Bool {
            let mask = capacity - 1
            var s = Int(h ^ (h >> 15)) & mask
            while starts[s] != 0 {
                if hashes[s] == h {
                    let other = Int(starts[s]) - 1
                    if other + length < b.count, b[other + length] == UInt8(ascii: ":"),
                       memcmp(b.baseAddress! + other, b.baseAddress! + start, length) == 0 { return false }
                }
                s = (s + 1) & mask
            }
            starts[s] = UInt32(start + 1)
            hashes[s] = h
            used += 1
            return true
        }

        private func grow(_ b: UnsafeBufferPointer<UInt8>) {
            let (oldStarts, oldHashes, oldCapacity) = (starts, hashes, capacity)
            capacity *= 2
            starts = .allocate(capacity: capacity)
            starts.initialize(repeating: 0, count: capacity)
            hashes = .allocate(capacity: capacity)
            used = 0
            for s in 0..<oldCapacity where oldStarts[s] != 0 {
                let start = Int(oldStarts[s]) - 1
                var end = start
                while b[end] != UInt8(ascii: ":") { end += 1 }
                _ = insert(b, start, end - start, oldHashes[s])
            }
            oldStarts.deallocate()
            oldHashes.deallocate()
        }
    }
}
