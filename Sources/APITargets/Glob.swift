/// The one glob syntax of apicli, for `check` patterns and a rule's `match:` / `except:`:
/// `*` any run of characters (also none, also dots), `?` one character, `[abc]` / `[a-z]` one of a
/// set, `[!abc]` one not in it; everything else stands for itself. Matching is linear in practice
/// (the classic two-pointer backtrack over the last `*`), so no pattern can blow up.
package enum Glob {
    package static func matches(_ pattern: String, _ text: String) -> Bool {
        let p = Array(pattern), t = Array(text)
        var i = 0, j = 0
        var star: Int?, resume = 0
        while j < t.count {
            if i < p.count, p[i] == "*" {
                star = i
                resume = j
                i += 1
            } else if i < p.count, let width = single(p, i, t[j]) {
                i += width
                j += 1
            } else if let s = star {
                i = s + 1
                resume += 1
                j = resume
            } else {
                return false
            }
        }
        while i < p.count, p[i] == "*" { i += 1 }
        return i == p.count
    }

    /// Whether the pattern has anything but literal characters.
    package static func isPattern(_ pattern: String) -> Bool {
        pattern.contains { "*?[".contains($0) }
    }

    /// If the element at `i` (a literal, `?` or a `[…]` set) matches `c`: how many pattern
    /// characters it took. A `[` without a closing `]` is a literal.
    private static func single(_ p: [Character], _ i: Int, _ c: Character) -> Int? {
        switch p[i] {
        case "?": return 1
        case "[":
            guard let (set, negated, end) = bracket(p, i) else { return p[i] == c ? 1 : nil }
            return set(c) != negated ? end - i + 1 : nil
        default: return p[i] == c ? 1 : nil
        }
    }

    /// `[…]` starting at `i`: its membership test, whether it is negated, and the index of `]`.
    private static func bracket(_ p: [Character], _ i: Int) -> ((Character) -> Bool, Bool, Int)? {
        var k = i + 1
        let negated = k < p.count && (p[k] == "!" || p[k] == "^")
        if negated { k += 1 }
        var ranges: [ClosedRange<Character>] = []
        var first = true
        while k < p.count, p[k] != "]" || first {
            first = false
            if k + 2 < p.count, p[k + 1] == "-", p[k + 2] != "]", p[k] <= p[k + 2] {
                ranges.append(p[k]...p[k + 2])
                k += 3
            } else {
                ranges.append(p[k]...p[k])
                k += 1
            }
        }
        guard k < p.count else { return nil }
        return ({ c in ranges.contains { $0.contains(c) } }, negated, k)
    }
}
