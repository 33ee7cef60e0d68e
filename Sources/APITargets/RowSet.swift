import APISupport
import APIYAML
import APIDiagnostics

/// Targets with rows (`each:`, `--data FILE`) turned into one target per row: what `check`, `call`
/// and `load` send. Row `r` of target `t` is the target `t[label]` (`DataRow.label`) whose
/// `params:` are `t`'s with the row's fields over them (so `-p` still wins, and the captures of
/// `needs:` too), and whose `expect:` has the row's `{fields}` filled in. Everything else is `t`'s.
package enum RowSet {
    /// The most rows a data set may hold.
    package static let maxRows = 100_000

    /// `selection` with every target that has rows replaced by its rows' targets, in order (a
    /// target's rows together). `data` (the command line's `--data`): the rows of every selected
    /// target, over their `each:`. `folder`: the targets folder, which `each: { file: }` stays in.
    /// `given`: the `-p` names (a field they set need not be in the data).
    package static func expand(_ selection: [(Service, Target)], data: [DataRow]?, folder: String,
                               given: Set<String> = []) throws(APIError) -> [(Service, Target)] {
        // Most runs have no rows: told field by field, nothing is copied.
        guard data != nil || selection.contains(where: { $0.1.eachBox != nil }) else { return selection }
        var out: [(Service, Target)] = []
        out.reserveCapacity(selection.count)
        for (i, rows) in try groups(selection, data: data, folder: folder, given: given).enumerated() {
            if let rows { out += rows.map { (selection[i].0, $0) } } else { out.append(selection[i]) }
        }
        return out
    }

    /// For each target of `selection` (as `expand`), its rows' targets, or nil when it has no rows:
    /// what `load` draws a row from each time it picks the target. Every target's problems together.
    package static func groups(_ selection: [(Service, Target)], data: [DataRow]?, folder: String,
                               given: Set<String> = []) throws(APIError) -> [[Target]?] {
        var files = DataFile.Cache()
        var out: [[Target]?] = []
        out.reserveCapacity(selection.count)
        var problems: [Diagnostic] = []
        for (service, target) in selection {
            do throws(APIError) {
                var rows = data
                if rows == nil { rows = try self.rows(of: target, in: service, folder: folder, files: &files) }
                out.append(try rows.map { rows throws(APIError) in try expand(target, rows: rows, given: given) })
            } catch {
                guard case .invalidInput(let found) = error else { throw error }
                problems += found
            }
        }
        if !problems.isEmpty { throw .invalidInput(problems) }
        return out
    }

    /// `service` with each target that has rows replaced by its first row's target, and the
    /// problems of those rows: what `validate` judges samples with (each data file read, its
    /// problems reported, once).
    package static func firstRows(_ service: Service, folder: String) -> (service: Service, problems: [Diagnostic]) {
        guard service.targets.contains(where: { $0.eachBox != nil }) else { return (service, []) }
        var files = DataFile.Cache()
        var out = service
        var problems: [Diagnostic] = []
        for i in out.targets.indices where out.targets[i].eachBox != nil {
            do throws(APIError) {
                guard let rows = try rows(of: service.targets[i], in: service, folder: folder, files: &files) else { continue }
                if let first = try expand(service.targets[i], rows: rows).first { out.targets[i] = first }
            } catch {
                if case .invalidInput(let found) = error { problems += found }
            }
        }
        return (out, problems)
    }

    /// The rows of `target`'s `each:` (its file read now), or nil when it has none.
    package static func rows(of target: Target, in service: Service, folder: String,
                             files: inout DataFile.Cache) throws(APIError) -> [DataRow]? {
        switch target.each {
        case nil: return nil
        case .inline(let rows, _)?: return rows
        case .file(let path, let written, let mark)?:
            return try files.rows(path, written: written, from: service.file, at: mark, inside: folder)
        }
    }

    /// `target` once per row, named `target[label]`.
    package static func expand(_ target: Target, rows: [DataRow], given: Set<String> = []) throws(APIError) -> [Target] {
        try checkFields(target, rows, given: given)
        var seen: [String: DataRow] = [:]
        var out: [Target] = []
        out.reserveCapacity(rows.count)
        for row in rows {
            let label = row.label
            if let first = seen[label] {
                throw .invalid(Diagnostic(file: row.file, mark: row.mark,
                                          message: "row \(row.number) is labelled '\(label)', as row \(first.number) (line \(first.mark.line)) is",
                                          hint: "labels name each row's result (\(target.name)[\(label)]): make them unique, or drop the label column"))
            }
            if label.contains(where: { $0.isNewline || $0 == "]" || $0.asciiValue.map { $0 < 0x20 } == true }) {
                throw .invalid(Diagnostic(file: row.file, mark: row.mark,
                                          message: "row \(row.number)'s label holds a line break, a control character or ']'",
                                          hint: "labels name each row's result (\(target.name)[label]): keep them to one plain line"))
            }
            seen[label] = row
            out.append(target.row(row, label: label))
        }
        return out
    }

    /// Every `{name}` the target's request needs that neither its `params:`, `-p` (`given`), its
    /// needs' captures nor the row gives is an error at the first row without it.
    static func checkFields(_ target: Target, _ rows: [DataRow], given: Set<String>) throws(APIError) {
        guard target.needs.isEmpty else { return }
        let params = Set(target.params.map(\.name))
        var required: [String] = []
        for name in target.requestPlaceholders where !params.contains(name) && !given.contains(name) && !required.contains(name) {
            required.append(name)
        }
        guard !required.isEmpty else { return }
        for row in rows {
            let missing = required.filter { name in !row.fields.contains { $0.name == name } }
            guard let name = missing.first else { continue }
            let list = missing.map { "{\($0)}" }.joined(separator: ", ")
            throw .invalid(Diagnostic(file: row.file, mark: row.mark,
                                      message: "row \(row.number) has no field '\(name)'\(missing.count > 1 ? " (nor \(missing.dropFirst().map { "'\($0)'" }.joined(separator: ", ")))" : ""), which \(target.qualifiedName) uses: \(list)",
                                      hint: "add a '\(name)' field (a column of a CSV file), give it in params:, or pass -p \(name)=VALUE"))
        }
    }
}

extension Target {
    /// The name of the target a row's target was made from (`user` of `user[alice]`); its own
    /// name for any other (a target's name never holds `[`).
    package var rowOf: String {
        name.firstIndex(of: "[").map { String(name[..<$0]) } ?? name
    }

    /// This target for one row: its params with the row's fields over them, its `expect:` filled.
    func row(_ row: DataRow, label: String) -> Target {
        var out = self
        out.name = name + "[" + label + "]"
        out.each = nil
        let names = Set(row.fields.map(\.name))
        out.params = params.filter { !names.contains($0.name) }
        for field in row.fields {
            // Data, not a template: `${`, `{` in a value are sent as written.
            out.params.append((field.name, Template(Template.escaping(field.value.placeholderText ?? ""), mark: row.mark)))
        }
        out.expect = expect.map { $0.filled(with: row) }
        return out
    }

    /// The `{names}` of the request's templates that must have a value (path, headers, query,
    /// parameters, JSON and form bodies; unknown names in text bodies stay as written).
    var requestPlaceholders: [String] {
        var names = path?.placeholders ?? []
        for header in headers { names += header.value.placeholders }
        for value in [task.query, task.parameters].compactMap({ $0 }) { names += value.placeholders }
        switch task.body {
        case .json(let v)?, .form(let v)?: names += v.placeholders
        default: break
        }
        return names
    }
}

extension Value {
    /// The `{names}` in its strings.
    var placeholders: [String] {
        switch self {
        case .null, .bool, .number: return []
        case .string(let t): return t.placeholders
        case .array(let items): return items.flatMap(\.placeholders)
        case .object(let members): return members.flatMap(\.value.placeholders)
        }
    }
}

extension Expectations {
    /// With each `{field}` of `row` filled in: header values, `body:` text (a regular expression
    /// gets the value literally), and `json:` values; a `json:` value that is exactly `"{field}"`
    /// becomes the field's value with its type (a number of a JSON or YAML row stays a number).
    func filled(with row: DataRow) -> Expectations {
        var out = self
        let fill = { (text: String, literal: (String) -> String) in RowFill.fill(text, row, literal) }
        out.headers = headers.map { h in
            var h = h
            h.value = fill(h.value, { $0 })
            return h
        }
        switch body {
        case .contains(let text)?: out.body = .contains(fill(text, { $0 }))
        case .matches(let pattern)?: out.body = .matches(fill(pattern, RowFill.regexLiteral))
        case nil: break
        }
        out.json = json.map { e in
            var e = e
            e.comparisons = e.comparisons.map { c in
                guard case .compare(let op, let value) = c else { return c }
                return .compare(op, RowFill.fill(value, row))
            }
            return e
        }
        return out
    }
}

enum RowFill {
    /// `text` with every `{name}` (or `{+name}`) that names a field of `row` replaced by
    /// `literal(value)`; anything else, `${VAR}` included, as written.
    static func fill(_ text: String, _ row: DataRow, _ literal: (String) -> String) -> String {
        guard text.utf8.contains(UInt8(ascii: "{")) else { return text }
        var out = ""
        var i = text.startIndex
        while i < text.endIndex {
            let c = text[i]
            if c == "$", text[text.index(after: i)...].hasPrefix("{") {  // `${VAR}`: not a field
                let end = text[i...].firstIndex(of: "}").map { text.index(after: $0) } ?? text.endIndex
                out += text[i..<end]
                i = end
                continue
            }
            if c == "{", let (name, _, end) = Template.placeholder(in: text, at: i), let value = row.text(of: name) {
                out += literal(value)
                i = end
                continue
            }
            out.append(c)
            i = text.index(after: i)
        }
        return out
    }

    /// `text` as a regular expression that matches it literally.
    static func regexLiteral(_ text: String) -> String {
        var out = ""
        for c in text {
            if "\\^$.|?*+()[]{}/".contains(c) { out.append("\\") }
            out.append(c)
        }
        return out
    }

    /// A `json:` value: `"{field}"` alone is the field's value, typed; other strings filled.
    static func fill(_ value: Value, _ row: DataRow) -> Value {
        switch value {
        case .string(let t):
            if let (name, _, end) = t.text.first == "{" ? Template.placeholder(in: t.text, at: t.text.startIndex) : nil,
               end == t.text.endIndex, let field = row.fields.first(where: { $0.name == name }) {
                return field.value
            }
            return .string(Template(fill(t.text, row, { $0 }), mark: t.mark))
        case .array(let items): return .array(items.map { fill($0, row) })
        case .object(let members): return .object(members.map { Value.Member(key: $0.key, value: fill($0.value, row)) })
        case .null, .bool, .number: return value
        }
    }
}
