/// A unified diff of two texts by lines (Myers' algorithm), as `diff -u` prints it: `--- a`,
/// `+++ b`, then hunks with 3 lines of context. Empty when the texts are the same. The lines both
/// share at the start and the end are set aside first; when the rest needs more than `maxEdits`
/// edits, it is written as all of the old lines removed and all of the new ones added (still a
/// diff `patch` applies, and memory stays bounded: Myers' trace grows with the square of the edits).
package enum LineDiff {
    static let maxEdits = 2000

    package static func unified(_ old: String, _ new: String, from: String, to: String, context: Int = 3) -> String {
        let a = lines(old), b = lines(new)
        let ops = script(a, b)
        guard ops.contains(where: { $0.kind != " " }) else { return "" }
        var out = "--- \(from)\n+++ \(to)\n"
        var i = 0
        while i < ops.count {
            guard ops[i].kind != " " else { i += 1; continue }
            // A hunk: from `context` lines before this change to `context` after the last change
            // that lies within 2 * context lines of the one before it.
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

    typealias Op = (kind: Character, text: String, a: Int, b: Int)

    /// Each line kept (" "), removed ("-") or added ("+"), with the index in `a` and `b` it stands at.
    private static func script(_ a: [String], _ b: [String]) -> [Op] {
        var head = 0
        while head < a.count, head < b.count, a[head] == b[head] { head += 1 }
        var tail = 0
        while tail < a.count - head, tail < b.count - head, a[a.count - 1 - tail] == b[b.count - 1 - tail] { tail += 1 }
        var ops: [Op] = (0..<head).map { (" ", a[$0], $0, $0) }
        let x0 = head, y0 = head
        let midA = Array(a[head..<(a.count - tail)]), midB = Array(b[head..<(b.count - tail)])
        if let middle = myers(midA, midB) {
            ops += middle.map { ($0.kind, $0.text, $0.a + x0, $0.b + y0) }
        } else {
            ops += midA.enumerated().map { ("-", $0.element, $0.offset + x0, y0) }
            ops += midB.enumerated().map { ("+", $0.element, x0 + midA.count, $0.offset + y0) }
        }
        ops += (0..<tail).map { (" ", a[a.count - tail + $0], a.count - tail + $0, b.count - tail + $0) }
        return ops
    }

    /// Myers' shortest edit script, or nil when it needs more than `maxEdits` edits. The trace keeps
    /// only the diagonals each round reached (2d + 1 of them).
    private static func myers(_ a: [String], _ b: [String]) -> [Op]? {
        let n = a.count, m = b.count
        if n == 0 || m == 0 {
            return a.enumerated().map { ("-", $0.element, $0.offset, 0) } + b.enumerated().map { ("+", $0.element, n, $0.offset) }
        }
        let limit = min(n + m, maxEdits)
        let offset = limit + 1
        var v = [Int](repeating: 0, count: 2 * limit + 3)
        var trace: [[Int]] = []
        var found = false
        for d in 0...limit {
            trace.append(Array(v[(offset - d)...(offset + d)]))
            for k in stride(from: -d, through: d, by: 2) {
                var x = (k == -d || (k != d && v[offset + k - 1] < v[offset + k + 1])) ? v[offset + k + 1] : v[offset + k - 1] + 1
                var y = x - k
                while x < n, y < m, a[x] == b[y] { x += 1; y += 1 }
                v[offset + k] = x
                if x >= n, y >= m { found = true; break }
            }
            if found { break }
        }
        guard found else { return nil }
        var ops: [Op] = []
        var x = n, y = m
        for d in stride(from: trace.count - 1, through: 0, by: -1) {
            let row = trace[d]  // v as round d began: diagonals -d...d at row[k + d]
            func at(_ k: Int) -> Int { row[k + d] }
            let k = x - y
            let prevK = (k == -d || (k != d && at(k - 1) < at(k + 1))) ? k + 1 : k - 1
            let prevX = d == 0 ? 0 : at(prevK)
            let prevY = prevX - prevK
            while x > prevX, y > prevY { x -= 1; y -= 1; ops.append((" ", a[x], x, y)) }
            if d > 0 {
                if x == prevX { y -= 1; ops.append(("+", b[y], x, y)) } else { x -= 1; ops.append(("-", a[x], x, y)) }
            }
        }
        return ops.reversed()
    }
}
