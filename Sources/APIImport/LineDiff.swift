/// A unified diff of two texts by lines (Myers' algorithm), as `diff -u` prints it: `--- a`,
/// `+++ b`, then hunks with 3 lines of context. Empty when the texts are the same.
package enum LineDiff {
    package static func unified(_ old: String, _ new: String, from: String, to: String, context: Int = 3) -> String {
        let a = lines(old), b = lines(new)
        let ops = script(a, b)
        guard ops.contains(where: { $0.kind != " " }) else { return "" }
        var out = "--- \(from)\n+++ \(to)\n"
        var i = 0
        while i < ops.count {
            guard ops[i].kind != " " else { i += 1; continue }
            // A hunk: from `context` lines before this change to `context` after the last change
            // that lies within 2 * context lines of the previous one.
            let start = max(0, i - context)
            var end = i
            var j = i
            while j < ops.count {
                if ops[j].kind != " " { end = j; j += 1; continue }
                if j - end > 2 * context { break }
                j += 1
            }
            let stop = min(ops.count, end + context + 1)
            let hunk = ops[start..<stop]
            let aStart = hunk.first!.a, bStart = hunk.first!.b
            let aCount = hunk.filter { $0.kind != "+" }.count, bCount = hunk.filter { $0.kind != "-" }.count
            out += "@@ -\(range(aStart, aCount)) +\(range(bStart, bCount)) @@\n"
            for op in hunk { out += String(op.kind) + op.text + "\n" }
            i = stop
        }
        return out
    }

    private static func range(_ start: Int, _ count: Int) -> String {
        count == 1 ? "\(start + 1)" : "\(count == 0 ? start : start + 1),\(count)"
    }

    private static func lines(_ text: String) -> [String] {
        var l = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if l.last == "" { l.removeLast() }
        return l
    }

    /// Each line kept (" "), removed ("-") or added ("+"), with the index in `a` and `b` it stands at.
    private static func script(_ a: [String], _ b: [String]) -> [(kind: Character, text: String, a: Int, b: Int)] {
        let n = a.count, m = b.count, max = n + m
        var v = [Int](repeating: 0, count: 2 * max + 2)
        var trace: [[Int]] = []
        var found = false
        for d in 0...max {
            trace.append(v)
            for k in stride(from: -d, through: d, by: 2) {
                var x = (k == -d || (k != d && v[max + k - 1] < v[max + k + 1])) ? v[max + k + 1] : v[max + k - 1] + 1
                var y = x - k
                while x < n, y < m, a[x] == b[y] { x += 1; y += 1 }
                v[max + k] = x
                if x >= n, y >= m { found = true; break }
            }
            if found { break }
        }
        var ops: [(kind: Character, text: String, a: Int, b: Int)] = []
        var x = n, y = m
        for d in stride(from: trace.count - 1, through: 0, by: -1) {
            let v = trace[d]
            let k = x - y
            let prevK = (k == -d || (k != d && v[max + k - 1] < v[max + k + 1])) ? k + 1 : k - 1
            let prevX = d == 0 ? 0 : v[max + prevK]
            let prevY = prevX - prevK
            while x > prevX, y > prevY { x -= 1; y -= 1; ops.append((" ", a[x], x, y)) }
            if d > 0 {
                if x == prevX { y -= 1; ops.append(("+", b[y], x, y)) } else { x -= 1; ops.append(("-", a[x], x, y)) }
            }
        }
        return ops.reversed()
    }
}
