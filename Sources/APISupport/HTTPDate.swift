/// HTTP dates (RFC 9110 §5.6.7) as seconds since 1970, without DateFormatter (no ICU):
/// IMF-fixdate `Sun, 06 Nov 1994 08:49:37 GMT`, the obsolete RFC 850 `Sunday, 06-Nov-94 08:49:37 GMT`
/// and asctime `Sun Nov  6 08:49:37 1994`. Cookie dates (`06-Nov-1994`) read as RFC 850.
package enum HTTPDate {
    static let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]

    package static func parse(_ text: String) -> Double? {
        let words = text.split(whereSeparator: { $0 == " " || $0 == "," }).map(String.init)
        var day: Int?, month: Int?, year: Int?, time: (Int, Int, Int)?
        for word in words {
            if let t = clock(word) {
                time = t
            } else if word.contains("-") {  // 06-Nov-94 or 06-Nov-1994
                let parts = word.split(separator: "-").map(String.init)
                guard parts.count == 3 else { return nil }
                (day, month, year) = (Int(parts[0]), monthIndex(parts[1]), Int(parts[2]))
            } else if let m = monthIndex(word) {
                month = m
            } else if let n = Int(word) {
                if n > 31 || word.count == 4 { year = n } else { day = n }
            }
        }
        guard var y = year, let m = month, let d = day, let (h, min, s) = time,
              (1...31).contains(d), h < 24, min < 60, s < 61 else { return nil }
        if y < 100 { y += y < 70 ? 2000 : 1900 }
        return Double(daysFromCivil(y, m, d)) * 86400 + Double(h * 3600 + min * 60 + s)
    }

    private static func monthIndex(_ word: String) -> Int? {
        guard word.count >= 3 else { return nil }
        return months.firstIndex(of: word.prefix(3).lowercased()).map { $0 + 1 }
    }

    private static func clock(_ word: String) -> (Int, Int, Int)? {
        let parts = word.split(separator: ":")
        guard parts.count == 3, let h = Int(parts[0]), let m = Int(parts[1]), let s = Int(parts[2]) else { return nil }
        return (h, m, s)
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
    static func daysFromCivil(_ year: Int, _ month: Int, _ day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146097 + doe - 719468
    }

    /// The proleptic Gregorian date of a day since 1970-01-01 (the inverse of `daysFromCivil`).
    package static func civilFromDays(_ days: Int) -> (year: Int, month: Int, day: Int) {
        let z = days + 719468
        let era = (z >= 0 ? z : z - 146096) / 146097
        let doe = z - era * 146097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
