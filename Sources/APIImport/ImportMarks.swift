import APIYAML
import APIDiagnostics
import APITargets
/// What `import openapi` owns in the files it writes, so that `--update` can tell the user's
/// edits from the description's: every target ends with
/// `x-import: { operation: ID, KEY: HASH, … }` and the file has one for its own keys (`baseURL`,
/// `doc`, `auth`, …). HASH is FNV-1a (32 bits, 8 hex digits) of the
/// key's lines as written, its indentation removed: a key whose text still hashes the same is
/// the description's (an update replaces it); one that does not was edited and is the user's.
/// `notes` stands for the comment lines the import writes at the top of a target. Keys starting
/// with `x-` are ignored by every command, so the marks change nothing a target does.
package enum ImportMarks {
    package static let key = "x-import"
    /// The file's keys an import owns (the rest, and `service:`, are the user's).
    static let fileKeys = ["baseURL", "doc", "tls", "auth", "environments"]
    static let notesKey = "notes"
    /// In a key's mark of hashes per entry, the whole key's hash.
    static let wholeKey = ""

    /// The draft with its marks: each target's operation (its `operationId`, else `METHOD /path`)
    /// and the hash of each key as `draft.text` writes it; the file's own keys' too.
    package static func marked(_ draft: ServiceDraft) -> ServiceDraft {
        var d = draft
        d.marker = nil
        for i in d.targets.indices { d.targets[i].marker = nil }
        guard let blocks = try? FileBlocks(text: d.text, file: d.service) else { return draft }
        var file: [YAMLOut.Entry] = []
        for k in blocks.root.keys where fileKeys.contains(k.key) { file.append(.pair(k.key, .string(hash(k.text)))) }
        d.marker = file.isEmpty ? nil : .map(file)
        for i in d.targets.indices {
            guard let t = blocks.target(d.targets[i].name)?.blocks else { continue }
            var e: [YAMLOut.Entry] = [.pair("operation", .string(identity(d.targets[i])))]
            if let notes = t.notes { e.append(.pair(notesKey, .string(hash(notes.text)))) }
            for k in t.keys where !k.key.hasPrefix("x-") {
                // A key written as a block mapping (`expect:`, `samples:`, …) gets a hash per entry too,
                // under the whole key's (""): one entry edited keeps only that entry yours.
                if let nested = k.nested.first, nested.notes == nil {
                    e.append(.pair(k.key, .map([.pair(wholeKey, .string(hash(k.text)))]
                                               + nested.keys.map { .pair($0.key, .string(hash($0.text))) })))
                } else {
                    e.append(.pair(k.key, .string(hash(k.text))))
                }
            }
            d.targets[i].marker = .map(e)
        }
        return d
    }

    /// The operation a target was written from: the `operationId`, else `METHOD /path`.
    static func identity(_ t: TargetDraft) -> String {
        t.operation?.name ?? "\(t.method) \(t.path)"
    }

    /// FNV-1a, 32 bits, as 8 hex digits.
    static func hash(_ text: String) -> String {
        var h: UInt32 = 0x811C9DC5
        for b in text.utf8 { h = (h ^ UInt32(b)) &* 0x0100_0193 }
        let hex = String(h, radix: 16)
        return String(repeating: "0", count: 8 - hex.count) + hex
    }
}

/// One key of a block mapping in a file: its lines (0-based, first...last) and its text as
/// written, without the key's indentation, CRs and trailing spaces (what `ImportMarks` hashes).
/// A key's lines run to the last line indented deeper than the key (comment lines too, and a
/// comment less indented when deeper lines follow it); blank and comment lines trailing it at
/// the key's indentation or less belong to what follows.
struct KeyBlock {
    var key: String
    var lines: ClosedRange<Int>
    var text: String
    /// A target's key written as a block mapping: its entries (one, or none).
    var nested: [MappingBlocks] = []
}

/// A block mapping of a file (the file's own keys, or a target's): its keys in order, the
/// comment lines above its first key (`notes`), and its `x-import:` mark read as text.
struct MappingBlocks {
    /// The line of the mapping's key (a target's name); -1 for the file.
    var keyLine: Int
    var indent: Int
    var notes: KeyBlock?
    var keys: [KeyBlock]
    var marker: [String: String]
    /// The mark's hashes per entry of a key (`expect: { "": WHOLE, status: H, … }`).
    var nestedMarker: [String: [String: String]] = [:]

    func key(_ name: String) -> KeyBlock? { keys.first { $0.key == name } }
}

/// A target file's text cut into `MappingBlocks`: the file's and each block-style target's
/// (`blocks` nil for a target in flow style, which an update does not edit).
struct FileBlocks {
    var lines: [String]
    var root: MappingBlocks
    var targets: [(name: String, keyLine: Int, end: Int, blocks: MappingBlocks?)]
    /// The indentation of the targets' names.
    var targetsIndent: Int?
    var targetsLine: Int?
    var node: Node
    /// Target name → its index in `targets` (the first of a name).
    private var index: [String: Int] = [:]

    init(text: String, file: String) throws(APIError) {
        let editor = TargetFileEditor(text: text, file: file)
        lines = editor.lines
        let parsed: Node?
        do { parsed = try YAMLParser.parse(Array(text.utf8)) } catch { throw .invalid(Diagnostic(file: file, error)) }
        guard let parsed, let pairs = parsed.pairs else {
            throw .invalid(Diagnostic(file: file, mark: nil, message: "\(file) is not a mapping of a target file's keys"))
        }
        node = parsed
        // The file's own keys an import owns (and its mark) are cut out; `targets:` and the rest are not needed.
        let rootPairs = pairs.filter { $0.key.mark.column == 1 && (ImportMarks.fileKeys + [ImportMarks.key]).contains($0.key.scalarText ?? "") }
        root = Self.mapping(rootPairs, keyLine: -1, indent: 0, lines: lines)
        targets = []
        guard let t = pairs.first(where: { $0.key.scalarText == "targets" }), let list = t.value.pairs else { return }
        targetsLine = t.key.mark.line - 1
        for pair in list {
            guard let name = pair.key.scalarText else { continue }
            let keyLine = pair.key.mark.line - 1
            targetsIndent = targetsIndent ?? pair.key.mark.column - 1
            let end = Self.end(of: keyLine, indent: pair.key.mark.column - 1, lines: lines)
            var blocks: MappingBlocks?
            if let own = pair.value.pairs, let first = own.first, first.key.mark.line - 1 > keyLine {
                let indent = first.key.mark.column - 1
                let members = own.filter { $0.key.mark.column - 1 == indent && (keyLine...end).contains($0.key.mark.line - 1) }
                blocks = Self.mapping(members, keyLine: keyLine, indent: indent, lines: lines, nesting: true)
            }
            if index[name] == nil { index[name] = targets.count }
            targets.append((name, keyLine, end, blocks))
        }
    }

    func target(_ name: String) -> (name: String, keyLine: Int, end: Int, blocks: MappingBlocks?)? {
        index[name].map { targets[$0] }
    }

    /// `nesting`: a target's keys, whose block-mapping values are cut into entries too.
    private static func mapping(_ pairs: [Node.Pair], keyLine: Int, indent: Int, lines: [String], nesting: Bool = false) -> MappingBlocks {
        var keys: [KeyBlock] = []
        var marker: [String: String] = [:]
        var nestedMarker: [String: [String: String]] = [:]
        for p in pairs {
            guard let key = p.key.scalarText else { continue }
            let line = p.key.mark.line - 1
            let range = line...end(of: line, indent: indent, lines: lines)
            var block = KeyBlock(key: key, lines: range, text: text(range, indent: indent, lines: lines))
            if nesting, key != ImportMarks.key, let own = p.value.pairs, let first = own.first, first.key.mark.line - 1 > line {
                let inner = first.key.mark.column - 1
                let members = own.filter { $0.key.mark.column - 1 == inner && range.contains($0.key.mark.line - 1) }
                block.nested = [mapping(members, keyLine: line, indent: inner, lines: lines)]
            }
            keys.append(block)
            if key == ImportMarks.key {
                for m in p.value.pairs ?? [] {
                    guard let k = m.key.scalarText else { continue }
                    if let v = m.value.scalarText {
                        marker[k] = v
                    } else if let entries = m.value.pairs {
                        var hashes: [String: String] = [:]
                        for e in entries { if let ek = e.key.scalarText, let ev = e.value.scalarText { hashes[ek] = ev } }
                        nestedMarker[k] = hashes
                        marker[k] = hashes[ImportMarks.wholeKey]
                    }
                }
            }
        }
        var notes: KeyBlock?
        if keyLine >= 0, let first = keys.first?.lines.lowerBound, first > keyLine + 1 {
            let between = (keyLine + 1)..<first
            let comments = between.filter { !isBlank(lines[$0]) }
            if let a = comments.first, let b = comments.last {
                notes = KeyBlock(key: ImportMarks.notesKey, lines: a...b, text: text(a...b, indent: indent, lines: lines))
            }
        }
        return MappingBlocks(keyLine: keyLine, indent: indent, notes: notes, keys: keys, marker: marker, nestedMarker: nestedMarker)
    }

    /// The last line of the key on line `index` (indented by `indent`): see `KeyBlock`.
    static func end(of index: Int, indent: Int, lines: [String]) -> Int {
        var last = index
        var i = index + 1
        while i < lines.count {
            let line = lines[i]
            if isBlank(line) { i += 1; continue }
            if isComment(line), indentation(line) <= indent {
                var j = i + 1
                while j < lines.count, isBlank(lines[j]) || isComment(lines[j]) { j += 1 }
                guard j < lines.count, indentation(lines[j]) > indent else { break }
                last = j
                i = j + 1
                continue
            }
            if indentation(line) <= indent { break }
            last = i
            i += 1
        }
        return last
    }

    static func text(_ range: ClosedRange<Int>, indent: Int, lines: [String]) -> String {
        range.map { i -> String in
            var l = Substring(lines[i])
            if l.hasSuffix("\r") { l = l.dropLast() }
            while l.last == " " || l.last == "\t" { l = l.dropLast() }
            var n = 0
            while n < indent, l.first == " " { l = l.dropFirst(); n += 1 }
            return String(l)
        }.joined(separator: "\n")
    }

    static func indentation(_ line: String) -> Int { line.utf8.prefix { $0 == 0x20 }.count }

    static func isBlank(_ line: String) -> Bool { line.utf8.allSatisfy { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D } }

    static func isComment(_ line: String) -> Bool { line.utf8.drop { $0 == 0x20 || $0 == 0x09 }.first == 0x23 }
}
