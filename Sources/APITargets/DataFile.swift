import APISupport
import APIYAML
import APIDiagnostics
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A file of rows (`each: { file: }`, `--data FILE`), by its extension: `.csv` (a header row,
/// then one row a line: `CSVTable`), `.json` (an array of objects) or `.yaml`/`.yml` (a list of
/// mappings). Every problem is exit 2 naming FILE:line: a row with the wrong number of fields, a
/// file that is missing, empty, over `maxBytes` or over `RowSet.maxRows` rows.
package enum DataFile {
    /// The largest data file read: 64 MiB.
    package static let maxBytes = 64 << 20

    package static let extensions = ["csv", "json", "yaml", "yml"]

    /// The rows of `path` (`shown`: the path as the user gave it, for messages).
    package static func read(_ path: String, shown: String? = nil) throws(APIError) -> [DataRow] {
        let shown = shown ?? path
        let kind = Path.pathExtension(path).lowercased()
        guard extensions.contains(kind) else {
            throw .invalid(Diagnostic(file: shown, mark: nil, message: "a data file is .csv, .json, .yaml or .yml, not '\(Path.lastComponent(path))'",
                                      hint: "name the file after its format: users.csv (a header row), users.json (an array of objects), users.yaml"))
        }
        guard Path.isRegularFile(path) else {
            let reason = Path.exists(path) ? "it is not a regular file" : "it does not exist"
            throw .invalid(Diagnostic(file: shown, mark: nil, message: "cannot read the data file: \(reason)"))
        }
        if let size = Path.size(path), size > maxBytes {
            throw .invalid(Diagnostic(file: shown, mark: nil, message: "the data file is \(size) bytes; data files are read up to \(maxBytes) bytes (64 MiB)",
                                      hint: "split it into smaller files and run each"))
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw .invalid(Diagnostic(file: shown, mark: nil, message: "cannot read the data file"))
        }
        let bytes = [UInt8](data)
        if kind == "csv", String(validating: bytes, as: UTF8.self) == nil {
            throw .invalid(Diagnostic(file: shown, mark: nil, message: "the data file is not UTF-8 text",
                                      hint: "save it as UTF-8 (CSV UTF-8 in spreadsheet programs)"))
        }
        let rows = kind == "csv" ? try csv(bytes, file: shown) : try structured(bytes, file: shown)
        guard !rows.isEmpty else {
            throw .invalid(Diagnostic(file: shown, mark: Mark(line: 1, column: 1), message: "the data file has no rows",
                                      hint: kind == "csv" ? "a CSV file is a header row, then one row a line" : "write a list with one mapping a request"))
        }
        return rows
    }

    private static func tooMany(_ file: String, _ mark: Mark) -> APIError {
        .invalid(Diagnostic(file: file, mark: mark, message: "the data file has more than \(RowSet.maxRows) rows",
                            hint: "split it into smaller files and run each"))
    }

    /// A header row, then one row a record, every record as long as the header.
    static func csv(_ bytes: [UInt8], file: String) throws(APIError) -> [DataRow] {
        var more: Int?
        let records: [CSVTable.Record]
        do {
            records = try CSVTable.records(bytes, limit: RowSet.maxRows + 1, more: &more)
        } catch {
            throw .invalid(Diagnostic(file: file, mark: error.mark, message: error.message,
                                      hint: "a field with a comma, a quote or a line break is written in double quotes, a quote in it doubled: \"a \"\"b\"\", c\""))
        }
        if let line = more { throw tooMany(file, Mark(line: line, column: 1)) }
        guard let header = records.first else { return [] }
        let headerMark = Mark(line: header.line, column: 1)
        var seen = Set<String>()
        for name in header.fields {
            if name.isEmpty {
                throw .invalid(Diagnostic(file: file, mark: headerMark, message: "the header row has an empty column name",
                                          hint: "the first row names the columns: id,name,email"))
            }
            if !seen.insert(name).inserted {
                throw .invalid(Diagnostic(file: file, mark: headerMark, message: "the header row names '\(name)' twice",
                                          hint: "give each column its own name"))
            }
        }
        var rows: [DataRow] = []
        rows.reserveCapacity(records.count - 1)
        for (i, record) in records.dropFirst().enumerated() {
            let mark = Mark(line: record.line, column: 1)
            guard record.fields.count == header.fields.count else {
                throw .invalid(Diagnostic(file: file, mark: mark,
                                          message: "row \(i + 1) has \(record.fields.count) field\(record.fields.count == 1 ? "" : "s"); the header (line \(header.line)) has \(header.fields.count)",
                                          hint: "a field with a comma is written in double quotes: \"Smith, Jane\"; an empty field is still separated: a,,c"))
            }
            let fields = zip(header.fields, record.fields).map { DataRow.Field(name: $0, value: .string(Template($1, mark: mark))) }
            rows.append(DataRow(fields: fields, file: file, mark: mark, number: i + 1))
        }
        return rows
    }

    /// A JSON array of objects or a YAML list of mappings (JSON read as YAML, for the lines).
    static func structured(_ bytes: [UInt8], file: String) throws(APIError) -> [DataRow] {
        let root: Node?
        do {
            root = try YAMLParser.parse(bytes)
        } catch {
            throw .invalid(Diagnostic(file: file, error))
        }
        guard let root, !root.isNull else { return [] }
        if let count = root.items?.count, count > RowSet.maxRows { throw tooMany(file, root.items?[RowSet.maxRows].mark ?? root.mark) }
        var reader = NodeReader(file: file)
        let rows = DataRow.rows(root, file: file, reader: &reader)
        if !reader.diagnostics.isEmpty { throw .invalidInput(reader.diagnostics) }
        return rows ?? []
    }

    /// Data files read once per run, however many targets name them.
    package struct Cache: Sendable {
        private var read: [String: [DataRow]] = [:]

        package init() {}

        /// The rows of `each: { file: }` (`path` resolved, `written` as in `targetFile` at `mark`),
        /// which must be inside `folder`, the targets folder.
        package mutating func rows(_ path: String, written: String, from targetFile: String, at mark: Mark,
                                   inside folder: String) throws(APIError) -> [DataRow] {
            if let rows = read[path] { return rows }
            guard Path.isInside(path, folder) else {
                throw .invalid(Diagnostic(file: targetFile, mark: mark, message: "each file '\(written)' is outside the targets folder \(folder)",
                                          hint: "keep data files in the targets folder (targets/data/users.csv), or pass one with --data FILE"))
            }
            guard Path.exists(path) else {
                throw .invalid(Diagnostic(file: targetFile, mark: mark, message: "each file '\(written)' does not exist (looked for \(path))",
                                          hint: "paths are relative to the folder of the target file"))
            }
            let rows = try DataFile.read(path)
            read[path] = rows
            return rows
        }
    }
}
