/// "Did you mean …?" by edit distance.
package enum Suggestions {
    /// The candidates closest to `word`: only those a typo away (distance ≤ max(2, n/3)), and of
    /// those only the nearest (`pth` suggests `path`, not also `auth`).
    package static func closest(to word: String, in candidates: some Sequence<String>, limit: Int = 3) -> [String] {
        let lower = word.lowercased()
        let threshold = max(2, lower.count / 3)
        let scored = candidates.compactMap { candidate -> (String, Int)? in
            let d = distance(lower, candidate.lowercased())
            return d <= threshold ? (candidate, d) : nil
        }
        let best = scored.map(\.1).min()
        return scored.filter { $0.1 == best }.sorted { $0.0 < $1.0 }.prefix(limit).map(\.0)
    }

    /// `did you mean 'a'?` or `did you mean 'a', 'b' or 'c'?`, nil when nothing is close.
    package static func hint(for word: String, in candidates: some Sequence<String>) -> String? {
        let found = closest(to: word, in: candidates).map { "'\($0)'" }
        guard let last = found.last else { return nil }
        let list = found.count == 1 ? last : found.dropLast().joined(separator: ", ") + " or " + last
        return "did you mean \(list)?"
    }

    /// Levenshtein distance over characters.
    package static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1,
                                 previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }
}
