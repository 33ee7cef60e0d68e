import APISupport
import APIYAML
import APIDiagnostics

extension ServiceDecoder {
    /// `each:` of a target: a list of mappings (one request per mapping), or `{ file: PATH }` (a
    /// CSV, JSON or YAML file of rows, relative to the target file; read when the target runs).
    mutating func each(_ node: Node, _ what: @autoclosure () -> String) -> RowSource? {
        if node.items != nil {
            let rows = DataRow.rows(node, file: file, reader: &reader)
            if node.items?.isEmpty == true {
                reader.error("each: of \(what()) is an empty list", at: node.mark,
                             hint: "list one mapping a request, like each: [ { id: 1 }, { id: 2 } ], or remove each:")
            }
            return rows.map { .inline($0, mark: node.mark) }
        }
        guard let entries = reader.mapping(node, "each of \(what())", known: ["file"]) else { return nil }
        guard let entry = entries.first(where: { $0.key == "file" }), let t = reader.text(entry.value, "each file") else {
            reader.error("each: { } needs file: PATH", at: node.mark,
                         hint: "write each: { file: data/users.csv } (CSV with a header row, JSON or YAML), or a list of mappings")
            return nil
        }
        return .file(path: t.text.hasPrefix("/") ? t.text : Path.join(folder, t.text), written: t.text, mark: entry.value.mark)
    }
}

extension DataRow {
    /// The rows of a YAML sequence of mappings (an inline `each:`, a JSON or YAML data file): each
    /// row's mark is its mapping's. Problems go to `reader`; nil when `node` is no sequence.
    package static func rows(_ node: Node, file: String, reader: inout NodeReader) -> [DataRow]? {
        guard let items = node.items else {
            reader.error("rows must be a list of mappings, not \(node.kindName)", at: node.mark,
                         hint: "write a list: [ { id: 1, name: a }, { id: 2, name: b } ]")
            return nil
        }
        var rows: [DataRow] = []
        rows.reserveCapacity(items.count)
        for (i, item) in items.enumerated() {
            guard let entries = reader.mapping(item, "row \(i + 1)") else { continue }
            var fields: [Field] = []
            fields.reserveCapacity(entries.count)
            for e in entries {
                if let value = reader.value(e.value, "field '\(e.key)' of row \(i + 1)") { fields.append(Field(name: e.key, value: value)) }
            }
            rows.append(DataRow(fields: fields, file: file, mark: item.mark, number: i + 1))
        }
        return rows
    }
}
