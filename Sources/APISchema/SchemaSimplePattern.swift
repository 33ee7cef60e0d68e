/// A `pattern` made only of single-character atoms with quantifiers (`^[A-Z]{3}-[0-9]{4}$`),
/// matched without the regex engine: a set of states walked once over the text (Thompson), so
/// the work is length × pattern size whatever the pattern, with no backtracking. Used only for
/// ASCII text without line breaks, where a character, a scalar and a byte are the same and `$`
/// can only mean the end; any other text, and any other pattern, goes to the compiled `BoundedRegex`.
struct SchemaSimplePattern: Sendable {
    /// One atom once: the bytes it takes (a 128-bit set), and whether it must be there once
    /// (`one`), may be (`optional`, from `?` and counts past the minimum) or may repeat (`star`).
    struct Unit: Sendable {
        enum Kind: Sendable { case one, optional, star }
        var low: UInt64 = 0, high: UInt64 = 0
        var kind = Kind.one

        func takes(_ b: UInt8) -> Bool {
            b < 64 ? low & (1 << UInt64(b)) != 0 : b < 128 && high & (1 << UInt64(b - 64)) != 0
        }

        mutating func add(_ b: UInt8) {
            if b < 64 { low |= 1 << UInt64(b) } else if b < 128 { high |= 1 << UInt64(b - 64) }
        }
    }

    let units: [Unit]
    let anchoredStart: Bool, anchoredEnd: Bool
    static let maxUnits = 1024

    /// nil when the pattern is outside the subset (groups, alternation, `\s`, `\b`, non-ASCII
    /// characters, counts past `maxUnits`).
    package init?(_ source: String) {
        var p = Array(source.utf8)[...]
        guard p.allSatisfy({ $0 < 0x80 }) else { return nil }
        var start = false, end = false
        if p.first == UInt8(ascii: "^") { start = true; p = p.dropFirst() }
        if p.last == UInt8(ascii: "$") {
            var slashes = 0, i = p.endIndex - 2
            while i >= p.startIndex, p[i] == UInt8(ascii: "\\") { slashes += 1; i -= 1 }
            guard slashes % 2 == 0 else { return nil }  // `\$` at the end: leave it to BoundedRegex
            end = true
            p = p.dropLast()
        }
        var out: [Unit] = []
        while let c = p.first {
            p = p.dropFirst()
            var u = Unit()
            switch c {
            case UInt8(ascii: "."): u.low = ~0; u.high = ~0
            case UInt8(ascii: "["): guard Self.readClass(&p, into: &u) else { return nil }
            case UInt8(ascii: "\\"):
                guard let e = p.first, Self.readEscape(e, into: &u) else { return nil }
                p = p.dropFirst()
            case UInt8(ascii: "("), UInt8(ascii: ")"), UInt8(ascii: "|"), UInt8(ascii: "^"), UInt8(ascii: "$"), UInt8(ascii: "*"),
                 UInt8(ascii: "+"), UInt8(ascii: "?"), UInt8(ascii: "{"), UInt8(ascii: "}"), UInt8(ascii: "]"):
                return nil
            default: u.add(c)
            }
            guard let (least, most) = Self.readQuantifier(&p) else { return nil }
            guard out.count + Swift.max(least, most ?? least + 1) <= Self.maxUnits else { return nil }
            for _ in 0..<least { out.append(u) }
            if let most {
                u.kind = .optional
                for _ in least..<most { out.append(u) }
            } else {
                u.kind = .star
                out.append(u)
            }
        }
        units = out
        anchoredStart = start
        anchoredEnd = end
    }

    /// Whether `text` (ASCII, no `\n` or `\r`: the caller checks) contains a match.
    func matches(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
        let accept = units.count
        var current = [Bool](repeating: false, count: accept + 1), next = current
        func enter(_ state: Int, _ set: inout [Bool]) {
            var s = state
            while !set[s] {
                set[s] = true
                guard s < accept, units[s].kind != .one else { return }
                s += 1
            }
        }
        enter(0, &current)
        if current[accept] && !anchoredEnd { return true }
        for (position, b) in text.enumerated() {
            for i in next.indices { next[i] = false }
            var any = false
            for s in 0..<accept where current[s] && units[s].takes(b) {
                enter(units[s].kind == .star ? s : s + 1, &next)
                any = true
            }
            if !anchoredStart { enter(0, &next); any = true }
            guard any else { return false }
            swap(&current, &next)
            if current[accept] && (!anchoredEnd || position == text.count - 1) { return true }
        }
        return current[accept]
    }

    /// After `[`: the class up to `]` (ranges, `^` negation, escapes `\d \w \\ \]` and the like).
    private static func readClass(_ p: inout ArraySlice<UInt8>, into u: inout Unit) -> Bool {
        var negate = false, set = Unit(), first = true, previous: UInt8?
        if p.first == UInt8(ascii: "^") { negate = true; p = p.dropFirst() }
        while let c = p.first {
            p = p.dropFirst()
            if c == UInt8(ascii: "]") && !first {
                if negate { set.low = ~set.low; set.high = ~set.high }
                u = set
                return true
            }
            first = false
            if c == UInt8(ascii: "]") || c == UInt8(ascii: "[") { return false }
            var atom: UInt8
            if c == UInt8(ascii: "\\") {
                guard let e = p.first else { return false }
                p = p.dropFirst()
                var escaped = Unit()
                guard readEscape(e, into: &escaped) else { return false }
                if escaped.low.nonzeroBitCount + escaped.high.nonzeroBitCount != 1 {  // \d, \w…: not a range end
                    set.low |= escaped.low; set.high |= escaped.high; previous = nil
                    continue
                }
                atom = escaped.low != 0 ? UInt8(escaped.low.trailingZeroBitCount) : UInt8(64 + escaped.high.trailingZeroBitCount)
            } else {
                atom = c
            }
            if p.first == UInt8(ascii: "-"), let to = p.dropFirst().first, to != UInt8(ascii: "]") {
                guard to != UInt8(ascii: "\\"), to != UInt8(ascii: "["), to >= atom else { return false }
                p = p.dropFirst(2)
                for b in atom...to { set.add(b) }
                previous = nil
                continue
            }
            set.add(atom)
            previous = atom
        }
        _ = previous
        return false
    }

    /// `\d \D \w \W` (ASCII, as ECMA-262 has them) and escaped punctuation; nil for the rest
    /// (`\s`, `\b`, `\u…`, back references…).
    private static func readEscape(_ e: UInt8, into u: inout Unit) -> Bool {
        switch e {
        case UInt8(ascii: "d"): for b in UInt8(ascii: "0")...UInt8(ascii: "9") { u.add(b) }
        case UInt8(ascii: "D"): for b in UInt8(ascii: "0")...UInt8(ascii: "9") { u.add(b) }; u.low = ~u.low; u.high = ~u.high
        case UInt8(ascii: "w"), UInt8(ascii: "W"):
            for b in UInt8(0)..<128 where SchemaFormat.isAlphanumeric(b) || b == UInt8(ascii: "_") { u.add(b) }
            if e == UInt8(ascii: "W") { u.low = ~u.low; u.high = ~u.high }
        case UInt8(ascii: "t"): u.add(0x09)
        default:
            let punctuation = Array(#".^$|?*+()[]{}\/-"#.utf8)
            guard punctuation.contains(e) else { return false }
            u.add(e)
        }
        return true
    }

    /// `*`, `+`, `?`, `{n}`, `{n,}`, `{n,m}` (a lazy `?` after one changes nothing for a yes/no
    /// answer); (1, 1) when none. nil for a malformed count.
    private static func readQuantifier(_ p: inout ArraySlice<UInt8>) -> (Int, Int?)? {
        var result: (Int, Int?) = (1, 1)
        switch p.first {
        case UInt8(ascii: "*"): result = (0, nil); p = p.dropFirst()
        case UInt8(ascii: "+"): result = (1, nil); p = p.dropFirst()
        case UInt8(ascii: "?"): result = (0, 1); p = p.dropFirst()
        case UInt8(ascii: "{"):
            guard let close = p.firstIndex(of: UInt8(ascii: "}")) else { return nil }
            let inside = p[(p.startIndex + 1)..<close].split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false)
            func number(_ s: ArraySlice<UInt8>) -> Int? {
                guard !s.isEmpty, s.count <= 5, s.allSatisfy({ $0 >= 48 && $0 <= 57 }) else { return nil }
                return s.reduce(0) { $0 * 10 + Int($1 - 48) }
            }
            guard let least = inside.first.flatMap(number), inside.count <= 2 else { return nil }
            if inside.count == 1 { result = (least, least) }
            else if inside[1].isEmpty { result = (least, nil) }
            else { guard let most = number(inside[1]), most >= least else { return nil }; result = (least, most) }
            p = p[(close + 1)...]
        default: return result
        }
        if p.first == UInt8(ascii: "?") { p = p.dropFirst() }
        if let c = p.first, c == UInt8(ascii: "*") || c == UInt8(ascii: "+") || c == UInt8(ascii: "?") || c == UInt8(ascii: "{") { return nil }
        return result
    }
}
