import APIYAML
import APIDiagnostics
/// One row of a data set (`each:` on a target, `--data FILE` on the command line): its fields in
/// the order written, and where it stands, for messages and for the name of its result.
/// A row's fields are placeholder values, as `params:` are: `{name}` in the target reads them.
package struct DataRow: Sendable {
    package struct Field: Sendable {
        package var name: String
        /// Scalars as written (numbers keep their text), nested values as they are.
        package var value: Value
        package init(name: String, value: Value) {
            (self.name, self.value) = (name, value)
        }
    }

    package var fields: [Field]
    /// The file it was read from (the target file for an inline `each:`).
    package var file: String
    /// Where the row starts in `file`.
    package var mark: Mark
    /// 1-based, in the data set.
    package var number: Int

    package init(fields: [Field], file: String, mark: Mark, number: Int) {
        (self.fields, self.file, self.mark, self.number) = (fields, file, mark, number)
    }

    /// The columns that name a row's result: the first of these present and not empty wins.
    package static let labelColumns = ["label", "name"]

    /// What its result is called, `target[label]`: the `label` (or `name`) field when the row has
    /// one that is not empty, else its 1-based number.
    package var label: String {
        for column in Self.labelColumns {
            if let field = fields.first(where: { $0.name == column }), let text = field.value.placeholderText, !text.isEmpty {
                return text
            }
        }
        return String(number)
    }

    /// The field's value as a placeholder takes it (text as written; numbers and booleans as
    /// written; null as empty; arrays and objects as compact JSON).
    package func text(of name: String) -> String? {
        fields.first { $0.name == name }?.value.placeholderText
    }
}

/// `each:` on a target: rows written inline, or a file of rows.
package enum RowSource: Sendable {
    /// `each: [ { id: 1 }, { id: 2 } ]`.
    case inline([DataRow], mark: Mark)
    /// `each: { file: data/users.csv }`: `path` resolved against the target file's folder, `written` as written.
    case file(path: String, written: String, mark: Mark)

    package var mark: Mark {
        switch self {
        case .inline(_, let mark), .file(_, _, let mark): return mark
        }
    }
}

extension Value {
    /// The text a `{placeholder}` expands to for this value (see `DataRow.text(of:)`).
    package var placeholderText: String? {
        switch self {
        case .null: return ""
        case .bool(let b): return b ? "true" : "false"
        case .number(let n): return n
        case .string(let t): return t.text
        case .array, .object: return jsonText
        }
    }
}
