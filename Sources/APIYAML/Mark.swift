/// A position in a source file, 1-based, as people and editors count.
/// Columns count characters (libyaml's count), not bytes.
package struct Mark: Sendable, Hashable, Comparable, CustomStringConvertible {
    package var line: Int
    package var column: Int

    package init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }

    package var description: String { "\(line):\(column)" }

    package static func < (a: Mark, b: Mark) -> Bool {
        (a.line, a.column) < (b.line, b.column)
    }
}
