/// `format` when asserted: date-time, date, time (RFC 3339), email, hostname, ipv4, ipv6, uri,
/// uuid, regex. nil for a format not known here (an annotation only, as the spec allows).
enum SchemaFormat {
    static let asserted: Set<String> = ["date-time", "date", "time", "email", "hostname", "ipv4", "ipv6", "uri", "uuid", "regex"]

    /// `dialect`: drafts 4 to 7 follow RFC 1123 for host names (`ab--cd` is one), 2019-09 and 2020-12 RFC 5891.
    static func check(_ format: String, _ s: String, dialect: SchemaDialect = .draft2020) -> Bool? {
        switch format {
        case "date": return date(Array(s.utf8)[...])
        case "time": return time(Array(s.utf8)[...])
        case "date-time":
            let b = Array(s.utf8)
            guard b.count > 11, b[10] == UInt8(ascii: "T") || b[10] == UInt8(ascii: "t") else { return false }
            return date(b[0..<10]) && time(b[11...])
        case "email": return email(s, dialect: dialect)
        case "hostname": return hostname(s, dialect: dialect)
        case "ipv4": return ipv4(Substring(s))
        case "ipv6": return ipv6(s)
        case "uri": return uri(s)
        case "uuid": return uuid(s)
        case "regex": return SchemaPattern(s).regex != nil
        default: return nil
        }
    }

    private static func digits(_ b: ArraySlice<UInt8>) -> Int? {
        guard !b.isEmpty, b.allSatisfy({ $0 >= 48 && $0 <= 57 }) else { return nil }
        return b.reduce(0) { $0 * 10 + Int($1 - 48) }
    }

    static func date(_ b: ArraySlice<UInt8>) -> Bool {
        let b = Array(b)
        guard b.count == 10, b[4] == UInt8(ascii: "-"), b[7] == UInt8(ascii: "-"),
              let y = digits(b[0..<4]), let m = digits(b[5..<7]), let d = digits(b[8..<10]), (1...12).contains(m), d >= 1 else { return false }
        let leap = y % 4 == 0 && (y % 100 != 0 || y % 400 == 0)
        let days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][m - 1]
        return d <= days
    }

    static func time(_ slice: ArraySlice<UInt8>) -> Bool {
        let b = Array(slice)
        guard b.count >= 9, b[2] == UInt8(ascii: ":"), b[5] == UInt8(ascii: ":"),
              let h = digits(b[0..<2]), let mi = digits(b[3..<5]), let s = digits(b[6..<8]), h < 24, mi < 60, s <= 60 else { return false }
        var i = 8
        if b[i] == UInt8(ascii: ".") {
            i += 1
            let start = i
            while i < b.count, b[i] >= 48, b[i] <= 57 { i += 1 }
            if i == start { return false }
        }
        guard i < b.count else { return false }
        var offset = 0
        if b[i] == UInt8(ascii: "Z") || b[i] == UInt8(ascii: "z") {
            guard i + 1 == b.count else { return false }
        } else {
            guard b[i] == UInt8(ascii: "+") || b[i] == UInt8(ascii: "-"), b.count - i == 6, b[i + 3] == UInt8(ascii: ":"),
                  let oh = digits(b[(i + 1)..<(i + 3)]), let om = digits(b[(i + 4)..<(i + 6)]), oh < 24, om < 60 else { return false }
            offset = (oh * 60 + om) * (b[i] == UInt8(ascii: "+") ? 1 : -1)
        }
        if s == 60 {  // a leap second is 23:59:60 in UTC only
            let utc = ((h * 60 + mi - offset) % 1440 + 1440) % 1440
            return utc == 23 * 60 + 59
        }
        return true
    }

    static func email(_ s: String, dialect: SchemaDialect) -> Bool {
        if s.utf8.allSatisfy({ $0 < 0x80 }), let answer = asciiEmail(Array(s.utf8), dialect: dialect) { return answer }
        guard let at = s.lastIndex(of: "@") else { return false }
        let local = s[..<at], domain = s[s.index(after: at)...]
        if local.hasPrefix("\"") { guard local.count >= 2, local.hasSuffix("\"") else { return false } }
        else if local.isEmpty || local.hasPrefix(".") || local.hasSuffix(".") || local.contains("..") { return false }
        else if !local.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "!#$%&'*+-/=?^_`{|}~.".contains($0)) }) { return false }
        if domain.hasPrefix("[") && domain.hasSuffix("]") {
            let inner = domain.dropFirst().dropLast()
            if inner.hasPrefix("IPv6:") { return ipv6(String(inner.dropFirst(5))) }
            return ipv4(inner)
        }
        return hostname(String(domain), dialect: dialect)
    }

    /// Only ASCII letters, digits and `-` are allowed, so the check runs on the bytes.
    static func hostname(_ s: String, dialect: SchemaDialect) -> Bool {
        hostname(Array(s.utf8)[...], dialect: dialect)
    }

    static func hostname(_ b: ArraySlice<UInt8>, dialect: SchemaDialect) -> Bool {
        guard !b.isEmpty, b.count <= 253 else { return false }
        return b.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false).allSatisfy { l in
            guard (1...63).contains(l.count), l.first != UInt8(ascii: "-"), l.last != UInt8(ascii: "-") else { return false }
            guard l.allSatisfy({ isAlphanumeric($0) || $0 == UInt8(ascii: "-") }) else { return false }
            let s = l.startIndex
            if dialect.draft >= .d2019, l.count >= 4, l[s + 2] == UInt8(ascii: "-"), l[s + 3] == UInt8(ascii: "-") {
                return (l[s] | 0x20) == UInt8(ascii: "x") && (l[s + 1] | 0x20) == UInt8(ascii: "n")
            }
            return true
        }
    }

    static func isAlphanumeric(_ b: UInt8) -> Bool {
        (b >= 48 && b <= 57) || (b | 0x20 >= 97 && b | 0x20 <= 122)
    }

    static func isHex(_ b: UInt8) -> Bool {
        (b >= 48 && b <= 57) || (b | 0x20 >= 97 && b | 0x20 <= 102)
    }

    /// `email` on ASCII text, byte by byte; nil where the text needs the general path (a quoted
    /// local part or an address literal).
    static func asciiEmail(_ b: [UInt8], dialect: SchemaDialect) -> Bool? {
        guard let at = b.lastIndex(of: UInt8(ascii: "@")) else { return false }
        let local = b[..<at], domain = b[(at + 1)...]
        if local.first == UInt8(ascii: "\"") || domain.first == UInt8(ascii: "[") { return nil }
        let dot = UInt8(ascii: ".")
        guard let first = local.first, first != dot, local.last != dot else { return false }
        var previous: UInt8 = 0
        for c in local {
            if c == dot && previous == dot { return false }
            guard isAlphanumeric(c) || emailSymbols.contains(c) else { return false }
            previous = c
        }
        return hostname(domain, dialect: dialect)
    }

    private static let emailSymbols = Set("!#$%&'*+-/=?^_`{|}~.".utf8)

    static func ipv4(_ s: Substring) -> Bool {
        let parts = s.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4 else { return false }
        return parts.allSatisfy { p in
            guard (1...3).contains(p.count), p.allSatisfy({ $0 >= "0" && $0 <= "9" && $0.isASCII }), let v = Int(p), v <= 255 else { return false }
            return !(p.count > 1 && p.first == "0")
        }
    }

    static func ipv6(_ s: String) -> Bool {
        guard !s.isEmpty, s.allSatisfy({ $0.isASCII }) else { return false }
        var text = Substring(s), groupsFromV4 = 0
        if let lastColon = text.lastIndex(of: ":"), text[text.index(after: lastColon)...].contains(".") {
            guard ipv4(text[text.index(after: lastColon)...]) else { return false }
            text = text[...lastColon]
            if text.hasSuffix("::") { } else { text = text.dropLast() }
            groupsFromV4 = 2
        }
        let halves = text.split(separator: "::", omittingEmptySubsequences: false).map(String.init)
        guard halves.count <= 2 else { return false }
        func groups(_ h: String) -> Int? {
            if h.isEmpty { return 0 }
            let g = h.split(separator: ":", omittingEmptySubsequences: false)
            guard g.allSatisfy({ (1...4).contains($0.count) && $0.allSatisfy(\.isHexDigit) }) else { return nil }
            return g.count
        }
        guard let a = groups(halves[0]) else { return false }
        if halves.count == 2 {
            guard let b = groups(halves[1]) else { return false }
            return a + b + groupsFromV4 <= 7
        }
        return a + groupsFromV4 == 8
    }

    static func uri(_ s: String) -> Bool {
        guard SchemaURI.hasScheme(s) else { return false }
        let bad: Set<Character> = [" ", "<", ">", "\\", "^", "`", "{", "}", "|", "\""]
        guard s.allSatisfy({ $0.isASCII && !bad.contains($0) && !$0.isWhitespace }) else { return false }
        let bytes = Array(s.utf8)
        for (i, b) in bytes.enumerated() where b == UInt8(ascii: "%") {
            guard i + 2 < bytes.count, Character(UnicodeScalar(bytes[i + 1])).isHexDigit, Character(UnicodeScalar(bytes[i + 2])).isHexDigit else { return false }
        }
        if s.firstRange(of: "://") == nil, s.contains(where: { $0 == "[" || $0 == "]" }) { return false }
        if let r = s.firstRange(of: "://") {
            let authority = s[r.upperBound...].prefix { $0 != "/" && $0 != "?" && $0 != "#" }
            let parts = authority.split(separator: "@", omittingEmptySubsequences: false)
            let hostPort = parts.last ?? ""
            if parts.count > 1, parts.dropLast().joined().contains(where: { $0 == "[" || $0 == "]" }) { return false }
            let rest = s[r.upperBound...].dropFirst(authority.count)
            if rest.contains(where: { $0 == "[" || $0 == "]" }) { return false }
            if hostPort.hasPrefix("["), let close = hostPort.firstIndex(of: "]") {
                let literal = String(hostPort[hostPort.index(after: hostPort.startIndex)..<close])
                return literal.hasPrefix("v") || ipv6(literal)
            }
            if let colon = hostPort.lastIndex(of: ":") {
                return hostPort[hostPort.index(after: colon)...].allSatisfy(\.isNumber)
            }
        }
        return true
    }

    /// 8-4-4-4-12 hex digits (ASCII only, so byte by byte).
    static func uuid(_ s: String) -> Bool {
        var k = 0
        for b in s.utf8 {
            if k == 8 || k == 13 || k == 18 || k == 23 {
                guard b == UInt8(ascii: "-") else { return false }
            } else if !isHex(b) { return false }
            k += 1
            if k > 36 { return false }
        }
        return k == 36
    }
}
