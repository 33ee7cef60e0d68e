/// A position in a source file, 1-based, as people and editors count.
/// Columns count characters (libyaml's count), not bytes.
///
/// Stored as two 32-bit numbers (every YAML node and template carries one: half the memory a large
/// file's tree fills); a line or column past 2,147,483,647 is kept as that number.
package struct Mark: Sendable, Hashable, Comparable, CustomStringConvertible {
    private var storedLine: Int32
    private var storedColumn: Int32

    package var line: Int {
        get { Int(storedLine) }
        set { storedLine = Int32(clamping: newValue) }
    }

    package var column: Int {
        get { Int(storedColumn) }
        set { storedColumn = Int32(clamping: newValue) }
    }

    package init(line: Int, column: Int) {
        storedLine = Int32(clamping: line)
        storedColumn = Int32(clamping: column)
    }

    package var description: String { "\(line):\(column)" }

    package static func < (a: Mark, b: Mark) -> Bool {
        (a.storedLine, a.storedColumn) < (b.storedLine, b.storedColumn)
    }
}
