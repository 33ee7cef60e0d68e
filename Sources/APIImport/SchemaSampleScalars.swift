import APISupport
import APITransport
/// Strings and numbers for schema samples: formats, `minLength`/`maxLength`, `pattern` (a sample
/// built from simple patterns, else a warning), `minimum`/`maximum`, `exclusiveMinimum`/`Maximum`
/// (3.0 booleans and 3.1 numbers) and `multipleOf`.
extension SchemaSample {
    func string(_ s: SpecNode, variant: Int) -> String {
        var text = Self.string(format: s["format"]?.text, variant: variant)
        let minLength = s["minLength"]?.text.flatMap { Int($0) }.map { min(max($0, 0), 10_000) } ?? 0
        let maxLength = s["maxLength"]?.text.flatMap { Int($0) }
        if let pattern = s["pattern"]?.text {
            if let made = PatternSample.make(pattern, variant: variant, length: minLength),
               BoundedRegex.firstMatch(pattern, in: made, syntax: .ecma) == .found {
                return made
            }
            if BoundedRegex.firstMatch(pattern, in: text, syntax: .ecma) != .found {
                loader.warn((s["pattern"] ?? s).warning("no sample could be made for pattern '\(pattern)'; write an example: the sample '\(text)' does not match it"))
            }
        }
        if text.unicodeScalars.count < minLength {
            text += String(repeating: "x", count: minLength - text.unicodeScalars.count)
        }
        if let maxLength, maxLength >= 0, text.unicodeScalars.count > maxLength {
            var scalars = String.UnicodeScalarView()
            scalars.append(contentsOf: text.unicodeScalars.prefix(maxLength))
            text = String(scalars)
        }
        return text
    }

    static func string(format: String?, variant: Int = 0) -> String {
        let n = variant == 0 ? "" : String(variant)
        switch format {
        case "date-time": return "2024-01-01T00:00:\(twoDigits(variant % 60))Z"
        case "date": return "2024-01-\(twoDigits(1 + variant % 28))"
        case "time": return "12:00:\(twoDigits(variant % 60))Z"
        case "duration": return "P\(1 + variant)D"
        case "email", "idn-email": return "user\(n)@example.com"
        case "uuid": return "3fa85f64-5717-4562-b3fc-" + String(String(0x2c963f66afa6 + variant, radix: 16).suffix(12))
        case "uri", "url", "iri": return "https://example.com/" + (n.isEmpty ? "" : "items/\(n)")
        case "uri-reference", "iri-reference": return "/items/\(variant)"
        case "hostname", "idn-hostname": return "host\(n).example.com"
        case "ipv4": return "192.0.2.\(1 + variant % 250)"
        case "ipv6": return "2001:db8::\(String(1 + variant % 0xfff, radix: 16))"
        case "byte": return ["c3RyaW5n", "c3RyaW5nMQ==", "c3RyaW5nMg=="][variant % 3]
        case "password": return "secret\(n)"
        case "json-pointer": return "/items/\(variant)"
        case "regex": return "^a+$"
        default: return "string\(n)"
        }
    }

    /// The smallest value the bounds and `multipleOf` allow, from 0 (the `variant`-th one after it).
    static func number(_ s: SpecNode, integer: Bool, variant: Int) -> String {
        func num(_ key: String) -> Double? { s[key]?.text.flatMap { Double($0) }.flatMap { $0.isFinite ? $0 : nil } }
        var low = num("minimum"), high = num("maximum")
        var lowOpen = false, highOpen = false
        if s["exclusiveMinimum"]?.bool == true { lowOpen = true }
        else if let x = num("exclusiveMinimum"), low.map({ x >= $0 }) ?? true { low = x; lowOpen = true }
        if s["exclusiveMaximum"]?.bool == true { highOpen = true }
        else if let x = num("exclusiveMaximum"), high.map({ x <= $0 }) ?? true { high = x; highOpen = true }
        var step = num("multipleOf").flatMap { $0 > 0 ? $0 : nil } ?? (integer ? 1 : 0)
        if integer, step != step.rounded() { step = 1 }  // an integer multiple of a fraction: any integer multiple works
        func fits(_ v: Double) -> Bool {
            if let low, lowOpen ? v <= low : v < low { return false }
            if let high, highOpen ? v >= high : v > high { return false }
            return true
        }
        var candidates: [Double] = []
        if step > 0 {
            let start = low.map { ($0 / step).rounded(.up) } ?? (high.map { min(0, ($0 / step).rounded(.down)) } ?? 0)
            for k in 0..<4 { candidates.append((start + Double(k + variant)) * step) }
            if let high { candidates.append(((high / step).rounded(.down) - Double(variant)) * step) }
            if fits(0), variant == 0 { candidates.insert(0, at: 0) }
        } else {
            let base: Double
            switch (low, high) {
            case let (l?, h?): base = lowOpen || highOpen ? (l + h) / 2 : l
            case let (l?, nil): base = lowOpen ? l + 1 : l
            case let (nil, h?): base = min(0, highOpen ? h - 1 : h)
            default: base = 0
            }
            candidates = [base + Double(variant), base, (base + (high ?? base + 1)) / 2]
        }
        let chosen = candidates.first(where: fits) ?? candidates.first ?? 0
        return text(chosen, integer: integer)
    }

    private static func text(_ v: Double, integer: Bool) -> String {
        if v == v.rounded(), abs(v) < 9.0e15 {
            let i = Int(v)
            return integer ? String(i) : String(i) + ".0"
        }
        return integer ? String(Int(v.rounded())) : String(v)
    }
}

/// `7` → `07`. (Not a `String.init`: an unapplied `String.init` elsewhere would pick it.)
func twoDigits(_ n: Int) -> String { n < 10 ? "0\(n)" : String(n) }
