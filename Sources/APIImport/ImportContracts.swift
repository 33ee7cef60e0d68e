import APISupport
import APIYAML
import APIJSON
import APISchema
import APITargets
import APITransport
import APIVerdict
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `import openapi` fills in the contract: every target whose operation has JSON schemas gets
/// `expect: { schema: { openapi: DESCRIPTION, operation: ID } }`, DESCRIPTION relative to the
/// target file's folder (where the Schema stage reads it from). Only references that work are
/// written: the operation's schemas must load exactly as `validate` will load them (else the
/// target keeps no `schema:`, gets a comment saying why, and the import a warning at the
/// operation), and every sample the target is checked with must satisfy them — judged when each
/// sample was chosen (`SampleJudge`, whatever the output), a target with a sample that does not
/// gets no `schema:` and a comment saying why (`TargetDraft.brokenSample`).
package enum ImportContracts {
    /// Descriptions with more operations get no `schema:` references yet: compiling every
    /// operation's schemas on each load of a file of thousands costs more than the import itself.
    package static let maxOperations = 500

    /// nil when `draft` may get references; else the header line and the warning saying why not.
    package static func tooLarge(_ draft: inout ServiceDraft, spec: String) -> ImportWarning? {
        guard draft.targets.count > maxOperations else { return nil }
        let why = "the description has \(draft.targets.count) operations, more than \(maxOperations)"
        draft.header.append("No expect: schema: references: \(why); add them to the targets you check.")
        return ImportWarning(file: spec, mark: nil, message: "\(why): no expect: schema: written")
    }
    /// Adds the references to `draft`, which will be written to `file`; `description` is the
    /// description's path relative to the folder of `file`.
    package static func fill(_ draft: inout ServiceDraft, description: String, file: String) -> [ImportWarning] {
        let folder = Path.parent(file)
        let doc: OpenAPIContract.Document
        switch OpenAPIContract.document(description, folder: folder) {
        case .success(let d): doc = d
        case .failure(let e):
            draft.header.append("No expect: schema: references: \(e.message).")
            return [ImportWarning(file: description, mark: nil, message: "\(e.message); no expect: schema: written")]
        }
        var warnings: [ImportWarning] = []
        for i in draft.targets.indices {
            guard let op = draft.targets[i].operation else { continue }
            if let broken = draft.targets[i].brokenSample {  // judged when it was chosen (and warned about then)
                draft.targets[i].notes.append("No expect: schema: \(broken).")
                continue
            }
            switch OpenAPIContract.load(doc, written: description, operation: op.name, folder: folder) {
            case .success(let contract):
                guard !contract.schemas.isEmpty || contract.request != nil else { continue }
                draft.targets[i].expect.append(.pair("schema", reference(description, op.name)))
            case .failure(let e):
                leaveOut(&draft.targets[i], "its schemas do not load: \(e.message)", &warnings)
            }
        }
        return warnings
    }

    /// Whether the target got a `schema:` reference.
    package static func hasSchema(_ t: TargetDraft) -> Bool {
        t.expect.contains { if case .pair("schema", _) = $0 { return true } else { return false } }
    }

    static func reference(_ description: String, _ operation: String) -> YAMLOut {
        .map([.pair("openapi", .string(description)), .pair("operation", .string(operation))])
    }

    private static func leaveOut(_ t: inout TargetDraft, _ why: String, _ warnings: inout [ImportWarning]) {
        t.notes.append("No expect: schema: \(why).")
        if let op = t.operation {
            warnings.append(ImportWarning(file: op.file, mark: op.mark, message: "operation '\(op.name)': no expect: schema: written, \(why)"))
        }
    }

    /// The files `start` name by `$ref`, and theirs, in turn (the Schema stage follows every
    /// `$ref` of an operation's schemas, not only those the import needed for samples). Only files
    /// inside `root` are followed; those outside are left to `start`'s own check.
    package static func descriptionFiles(_ start: [String], inside root: String) -> [String] {
        var seen: Set<String> = []
        var queue = start
        let load = OpenAPIContract.fileLoader(root: root)
        var out: [String] = []
        while let file = queue.popLast() {
            guard seen.insert(file).inserted else { continue }
            out.append(file)
            if let bytes = FileManager.default.contents(atPath: file), Self.onlyLocalReferences(Array(bytes)) { continue }
            guard let value = load("file://" + file) else { continue }
            for ref in references(in: value) {
                let path = String(ref.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)[0])
                guard !path.isEmpty, !path.contains("://") else { continue }
                let target = Path.normalized(Path.join(Path.parent(file), path.removingPercentEscapes() ?? path))
                if let real = Path.resolved(target), real.hasPrefix(root + "/") { queue.append(real) }
            }
        }
        return out.sorted()
    }

    /// Whether every `$ref` of a file's text plainly names a place in the same file (`"$ref": "#/…"`,
    /// `$ref: '#/…'`), so that it names no other file and need not be parsed to find them (a large
    /// single-file description was parsed once more for this). Anything unusual (an escape that could
    /// spell `$`, a `$ref` followed by anything but an optional quote, `:` and a quoted or bare `#`)
    /// answers false, and the file is parsed.
    static func onlyLocalReferences(_ text: [UInt8]) -> Bool {
        let dollar = UInt8(ascii: "$"), quote = UInt8(ascii: "\""), apostrophe = UInt8(ascii: "'")
        func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 }
        var i = 0
        while i < text.count {
            let b = text[i]
            if b == UInt8(ascii: "\\"), spellsDollar(text, escape: i) { return false }  // `"\u0024ref"` is `$ref`
            guard b == dollar else { i += 1; continue }
            guard i + 4 <= text.count, text[i + 1] == UInt8(ascii: "r"), text[i + 2] == UInt8(ascii: "e"), text[i + 3] == UInt8(ascii: "f") else {
                i += 1
                continue
            }
            var j = i + 4
            if j < text.count, text[j] == quote || text[j] == apostrophe { j += 1 }
            while j < text.count, isSpace(text[j]) { j += 1 }
            guard j < text.count, text[j] == UInt8(ascii: ":") else { return false }
            j += 1
            while j < text.count, isSpace(text[j]) { j += 1 }
            if j < text.count, text[j] == quote || text[j] == apostrophe { j += 1 }
            guard j < text.count, text[j] == UInt8(ascii: "#") else { return false }
            i = j
        }
        return true
    }

    /// Whether the escape at `i` (`\u0024`, `\x24`, `\U00000024`: JSON's and YAML's) spells `$`.
    private static func spellsDollar(_ text: [UInt8], escape i: Int) -> Bool {
        guard i + 1 < text.count else { return false }
        let digits: Int
        switch text[i + 1] {
        case UInt8(ascii: "u"): digits = 4
        case UInt8(ascii: "x"): digits = 2
        case UInt8(ascii: "U"): digits = 8
        default: return false
        }
        guard i + 2 + digits <= text.count,
              let n = UInt32(String(decoding: text[(i + 2)..<(i + 2 + digits)], as: UTF8.self), radix: 16) else { return false }
        return n == 0x24
    }

    /// Every `$ref` string of a document.
    static func references(in value: JSONValue) -> [String] {
        switch value {
        case .object(let members):
            return members.flatMap { key, v -> [String] in
                if key == "$ref", case .string(let s) = v { return [s] }
                return references(in: v)
            }
        case .array(let items): return items.flatMap(references(in:))
        default: return []
        }
    }

}
