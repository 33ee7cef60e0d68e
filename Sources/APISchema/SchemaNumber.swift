/// `multipleOf` in decimal: 19.99 is a multiple of 0.01 (in binary floating point it is not).
/// Both numbers are taken as their shortest decimal spelling, which is the literal as written
/// for any literal of up to 15 significant digits, and divided exactly as integers.
enum SchemaNumber {
    /// `mDecimal`: `decimal(m)` when the caller has it already.
    static func isMultiple(_ x: Double, of m: Double, mDecimal: (digits: Int, exponent: Int)?? = nil) -> Bool {
        guard x.isFinite, m.isFinite, m > 0 else { return false }
        if x == 0 { return true }
        if let a = decimal(x), let b = mDecimal ?? decimal(m) {
            let e = min(a.exponent, b.exponent)
            if let ai = scaled(a.digits, by: a.exponent - e), let bi = scaled(b.digits, by: b.exponent - e), bi != 0 {
                return ai % bi == 0
            }
        }
        let q = x / m
        return q.isFinite && q == q.rounded()  // beyond 18 digits: as close as a Double gets
    }

    /// 19.99 → (1999, -2); nil when the digits do not fit in an Int.
    static func decimal(_ d: Double) -> (digits: Int, exponent: Int)? {
        let text = "\(abs(d))"
        var mantissa = Substring(text), exponent = 0
        if let e = text.firstIndex(where: { $0 == "e" || $0 == "E" }) {
            mantissa = text[..<e]
            guard let ex = Int(text[text.index(after: e)...].replacing("+", with: "")) else { return nil }
            exponent = ex
        }
        var digits = String(mantissa)
        if let dot = mantissa.firstIndex(of: ".") {
            let fraction = mantissa[mantissa.index(after: dot)...]
            digits = String(mantissa[..<dot]) + fraction
            exponent -= fraction.count
        }
        while digits.count > 1, digits.hasSuffix("0") { digits.removeLast(); exponent += 1 }
        guard let value = Int(digits) else { return nil }
        return (value, exponent)
    }

    private static func scaled(_ v: Int, by power: Int) -> Int? {
        guard power >= 0, power <= 18 else { return nil }
        var out = v
        for _ in 0..<power {
            let (next, overflow) = out.multipliedReportingOverflow(by: 10)
            if overflow { return nil }
            out = next
        }
        return out
    }
}
