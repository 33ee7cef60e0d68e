import APITransport
/// A string for a simple `pattern`: literals, `.`, classes (`[a-z0-9_]`, `\d`, `\w`, `\s`), groups
/// with alternatives (the first is taken), anchors and quantifiers (`?` `*` `+` `{n}` `{n,m}`, at
/// their least, more when `length` asks for it). Anything else (lookaround, back-references) gives
/// nil; the caller checks the result against the pattern either way.
enum PatternSample {
    static func make(_ pattern: String, variant: Int = 0, length: Int = 0) -> String? {
        var p = Parser(chars: Array(pattern), variant: variant)
        guard let atoms = p.sequence(), p.i == p.chars.count else { return nil }
        var out = atoms.map { $0.text(times: $0.min) }.joined()
        // Too short for minLength: let the first open-ended atom repeat more.
        if out.count < length, let i = atoms.firstIndex(where: { $0.max == nil || $0.max! > $0.min }) {
            let a = atoms[i]
            let more = min(length - out.count, (a.max ?? Int.max) - a.min)
            out = atoms.enumerated().map { $0.offset == i ? a.text(times: a.min + more) : $0.element.text(times: $0.element.min) }.joined()
        }
        return out
    }

    struct Atom {
        var unit: String
        var min = 1
        var max: Int? = 1
        func text(times n: Int) -> String { String(repeating: unit, count: Swift.min(n, 10_000)) }
    }

    struct Parser {
        let chars: [Character]
        let variant: Int
        var i = 0

        init(chars: [Character], variant: Int) {
            self.chars = chars
            self.variant = variant
        }

        /// Atoms up to `)` or the end; for `a|b`, the first alternative (the rest is skipped).
        mutating func sequence() -> [Atom]? {
            var atoms: [Atom] = []
            while i < chars.count, chars[i] != ")" {
                if chars[i] == "|" {
                    guard skipAlternatives() else { return nil }
                    break
                }
                if chars[i] == "^" || chars[i] == "$" { i += 1; continue }
                guard var atom = unit() else { return nil }
                guard quantifier(&atom) else { return nil }
                atoms.append(atom)
            }
            return atoms
        }

        private mutating func skipAlternatives() -> Bool {
            var level = 0
            while i < chars.count {
                switch chars[i] {
                case "\\": i += 1
                case "(": level += 1
                case ")": if level == 0 { return true }; level -= 1
                default: break
                }
                i += 1
            }
            return true
        }

        private mutating func unit() -> Atom? {
            let c = chars[i]
            i += 1
            switch c {
            case "(":
                if i < chars.count, chars[i] == "?" {
                    guard i + 1 < chars.count, chars[i + 1] == ":" else { return nil }  // lookarounds, named groups
                    i += 2
                }
                guard let inner = sequence(), i < chars.count, chars[i] == ")" else { return nil }
                i += 1
                return Atom(unit: inner.map { $0.text(times: $0.min) }.joined())
            case "[": return charClass()
            case "\\": return escape().map { Atom(unit: $0) }
            case ".": return Atom(unit: "a")
            case "*", "+", "?", "{", "}", "]": return nil
            default: return Atom(unit: String(c))
            }
        }

        private mutating func escape() -> String? {
            guard i < chars.count else { return nil }
            let c = chars[i]
            i += 1
            switch c {
            case "d": return String(variant % 10)
            case "w": return "a"
            case "s": return " "
            case "D", "W", "S": return "-"
            case _ where c.isLetter || c.isNumber: return nil  // \b, \1, \p{…}: not simple
            default: return String(c)
            }
        }

        /// `[a-z0-9]`: its first member (a range's start); a negated class gives nil.
        private mutating func charClass() -> Atom? {
            guard i < chars.count, chars[i] != "^" else { return nil }
            var first: String?
            while i < chars.count, chars[i] != "]" {
                var member: String
                if chars[i] == "\\" {
                    i += 1
                    guard let e = escape() else { return nil }
                    member = e
                } else {
                    member = String(chars[i])
                    i += 1
                }
                if i + 1 < chars.count, chars[i] == "-", chars[i + 1] != "]" { i += 2 }  // a range: its start
                if first == nil { first = member }
            }
            guard i < chars.count, let first else { return nil }
            i += 1
            return Atom(unit: first)
        }

        private mutating func quantifier(_ a: inout Atom) -> Bool {
            guard i < chars.count else { return true }
            switch chars[i] {
            case "?": a.min = 0; a.max = 1; i += 1
            case "*": a.min = 0; a.max = nil; i += 1
            case "+": a.min = 1; a.max = nil; i += 1
            case "{":
                guard let close = chars[i...].firstIndex(of: "}") else { return false }
                let body = String(chars[(i + 1)..<close]).split(separator: ",", omittingEmptySubsequences: false)
                guard let low = body.first.flatMap({ Int($0) }), low <= 10_000 else { return false }
                a.min = low
                a.max = body.count == 1 ? low : (body[1].isEmpty ? nil : Int(body[1]))
                i = close + 1
            default: return true
            }
            if i < chars.count, chars[i] == "?" || chars[i] == "+" { i += 1 }  // lazy, possessive
            return true
        }
    }
}
