import APISupport
import APIYAML
import APIDiagnostics
import APITargets
import APITransport
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
/// What `import openapi --update` did to one file, for the user: targets added, changed (which
/// keys), removed from the description (kept and marked), and edits kept.
package struct ImportUpdateReport: Sendable, Equatable {
    package var file: String
    package var created = false
    package var added: [String] = []
    package var changed: [String] = []
    package var removed: [String] = []
    package var kept: [String] = []

    package init(file: String) { self.file = file }

    /// One line per item, `  added    NAME (OPERATION)`, then a summary line.
    package var lines: [String] {
        var out = ["\(created ? "created" : "updated") \(file): \(added.count) added, \(changed.count) changed, \(removed.count) removed, \(kept.count) kept"]
        for (word, items) in [("added", added), ("changed", changed), ("removed", removed), ("kept", kept)] {
            for i in items { out.append("  " + word + String(repeating: " ", count: 8 - word.count) + " " + i) }
        }
        return out
    }
}

/// `import openapi --update`: the file an earlier import wrote (and the user edited), brought in
/// step with the draft of a newer description, through the one target-file editor (every line
/// not changed stays as it is). Keys are judged by `ImportMarks`' hashes, three ways: the file's
/// key (mine), its hash as last imported (base) and the new description's (theirs):
/// - mine hashes as base: the description's: replaced by theirs (or removed when theirs has none);
/// - mine differs from base, or base has no such key: the user's: kept (and said so when
///   theirs changed too); a key the user deleted stays deleted;
/// - a key only theirs has is added. The `x-import:` marks become theirs.
/// Targets are matched by the operation in their mark (a renamed target is still found); a new
/// operation's target is added at the end; a target whose operation is gone is kept, with a
/// comment above it and `removed:` in its mark; targets without a mark are the user's.
package enum ImportUpdate {
    /// `checkAs`: where the merged text is decoded to check it (the staging folder's copy of the
    /// file, beside the description's new copy), `file` when nil.
    package static func merge(_ old: String, file: String, with new: ServiceDraft, spec: String,
                              checkAs: String? = nil) throws(APIError) -> (text: String, report: ImportUpdateReport) {
        let mine = try FileBlocks(text: old, file: file)
        let theirs = try FileBlocks(text: new.text, file: file)
        var edits = Edits()
        var report = ImportUpdateReport(file: file)

        // The file's own keys.
        var fileChanged: [String] = [], fileKept: [String] = []
        merge(mine.root, theirs.root, only: ImportMarks.fileKeys, mine: mine, theirs: theirs,
              before: mine.targetsLine ?? mine.lines.count, edits: &edits, changed: &fileChanged, kept: &fileKept)
        if !fileChanged.isEmpty { report.changed.append("the file's " + fileChanged.joined(separator: ", ")) }
        if !fileKept.isEmpty { report.kept.append("the file's " + fileKept.joined(separator: ", ")) }
        replaceMarker(mine.root, theirs.root, mine: mine, theirs: theirs, before: mine.targetsLine ?? mine.lines.count, edits: &edits)

        // Targets, matched by operation.
        var byOperation: [String: Int] = [:]
        for (i, t) in mine.targets.enumerated() {
            guard let op = t.blocks?.marker["operation"] ?? flowOperation(t.name, mine) else { continue }
            if byOperation[op] == nil { byOperation[op] = i }
        }
        var matched: Set<Int> = []
        var appended: [String] = []
        var addedNames: [String] = []
        for t in new.targets {
            let op = ImportMarks.identity(t)
            guard let newBlocks = theirs.target(t.name) else { continue }
            if let i = byOperation[op] {
                matched.insert(i)
                let old = mine.targets[i]
                guard let oldBlocks = old.blocks, let tb = newBlocks.blocks else {
                    report.kept.append("\(old.name) (written in flow style: not updated; write it one key a line to have it updated)")
                    continue
                }
                var changed: [String] = [], kept: [String] = []
                merge(oldBlocks, tb, only: nil, mine: mine, theirs: theirs, before: old.end + 1, edits: &edits, changed: &changed, kept: &kept)
                if oldBlocks.marker["removed"] != nil, let line = removalComment(above: old.keyLine, mine) {
                    edits.replace(line...line, with: [])
                    changed.append("back in the description")
                }
                replaceMarker(oldBlocks, tb, mine: mine, theirs: theirs, before: old.end + 1, edits: &edits)
                if !changed.isEmpty { report.changed.append("\(old.name): \(changed.joined(separator: ", "))") }
                if !kept.isEmpty { report.kept.append("\(old.name): \(kept.joined(separator: ", "))") }
            } else if let same = mine.target(t.name) {
                if let i = mine.targets.firstIndex(where: { $0.name == same.name }) { matched.insert(i) }
                report.kept.append("\(same.name) (not \(op)'s target, by its x-import: mark: the description's target of that name is not added)")
            } else {
                let lines = reindented(Array(theirs.lines[newBlocks.keyLine...newBlocks.end]),
                                       by: (mine.targetsIndent ?? 2) - (theirs.targetsIndent ?? 2))
                appended += [""] + lines
                addedNames.append(t.name)
                report.added.append("\(t.name) (\(op))")
            }
        }
        let specName = Path.lastComponent(spec)
        for (i, t) in mine.targets.enumerated() where !matched.contains(i) {
            guard let blocks = t.blocks, let op = blocks.marker["operation"], byOperation[op] == i else {
                if t.blocks?.marker["operation"] == nil { report.kept.append("\(t.name) (yours)") }
                continue
            }
            if blocks.marker["removed"] != nil { continue }
            let pad = String(repeating: " ", count: mine.targetsIndent ?? 2)
            edits.insert(at: t.keyLine, [pad + "# Not in the description (\(specName)) any more (import openapi --update): kept; delete it when you no longer need it."])
            var marker = blocks.marker
            marker["removed"] = specName
            // Its `expect: schema:` names an operation the description no longer has: made a comment
            // (and the mark holds expect: as it is now, so the comment is not taken for your edit).
            if let expect = blocks.key("expect") {
                var lines = mine.lines
                for line in expect.lines {
                    let text = mine.lines[line].drop { $0 == " " }
                    guard text.hasPrefix("schema: {"), text.contains("operation: \(op)") || text.contains("operation: \"\(op)\"") else { continue }
                    let indent = String(repeating: " ", count: FileBlocks.indentation(mine.lines[line]))
                    lines[line] = indent + "# " + text.replacing("\r", with: "") + "   # not in \(specName) any more"
                    edits.replace(line...line, with: [lines[line]])
                }
                if marker["expect"] == ImportMarks.hash(expect.text) {
                    marker["expect"] = ImportMarks.hash(FileBlocks.text(expect.lines, indent: blocks.indent, lines: lines))
                }
            }
            if let m = blocks.key(ImportMarks.key) {
                let entries: [YAMLOut.Entry] = marker.keys.sorted { (order($0), $0) < (order($1), $1) }.map { .pair($0, .string(marker[$0]!)) }
                var out = ""
                YAMLWriter.block(.map([.pair(ImportMarks.key, .map(entries))]), indent: blocks.indent, into: &out)
                edits.replace(m.lines, with: out.split(separator: "\n").map(String.init))
            }
            report.removed.append("\(t.name) (\(op): marked, kept)")
        }
        if !appended.isEmpty {
            let last = mine.targets.last.map { $0.end } ?? (mine.targetsLine ?? mine.lines.count - 1)
            edits.insert(at: last + 1, appended)
        }
        var editor = TargetFileEditor(text: old, file: checkAs ?? file)
        edits.apply(to: &editor)
        let stem = Path.stem(Path.lastComponent(file))
        do throws(APIError) {
            let text = try editor.checked(defaultName: stem, what: "updating \(file) from \(specName)") { service in
                addedNames.allSatisfy { service.target(named: $0) != nil }
            }
            return (text, report)
        } catch {
            // Said of the file the user knows, not of the staging folder's copy it was checked as.
            guard let checkAs, case .invalidInput(var diagnostics) = error else { throw error }
            for i in diagnostics.indices where diagnostics[i].file == checkAs { diagnostics[i].file = file }
            throw .invalidInput(diagnostics)
        }
    }

    /// The key order of a mark: operation first, then as the target writes its keys.
    private static func order(_ key: String) -> Int {
        ["operation", "removed", ImportMarks.notesKey, "doc", "method", "path", "params", "headers", "task", "auth", "timeout",
         "check", "followRedirects", "expect", "sample", "samples"].firstIndex(of: key) ?? 100
    }

    /// A flow-style target's operation, from its `x-import:` read off the parsed file.
    private static func flowOperation(_ name: String, _ file: FileBlocks) -> String? {
        file.node.pairs?.first { $0.key.scalarText == "targets" }?.value.pairs?.first { $0.key.scalarText == name }?
            .value.pairs?.first { $0.key.scalarText == ImportMarks.key }?.value.pairs?
            .first { $0.key.scalarText == "operation" }?.value.scalarText
    }

    /// The line of the comment an earlier update wrote above a removed target, if it is still there.
    private static func removalComment(above keyLine: Int, _ file: FileBlocks) -> Int? {
        guard keyLine > 0 else { return nil }
        let line = file.lines[keyLine - 1].drop { $0 == " " }
        return line.hasPrefix("# Not in the description (") && line.contains("(import openapi --update)") ? keyLine - 1 : nil
    }

    /// The three-way merge of one mapping's keys (and its `notes`), as the type says.
    private static func merge(_ m: MappingBlocks, _ t: MappingBlocks, only: [String]?, mine: FileBlocks, theirs: FileBlocks,
                              before end: Int, edits: inout Edits, changed: inout [String], kept: inout [String]) {
        merge(m, t, base: m.marker, nestedBase: m.nestedMarker, only: only, mine: mine, theirs: theirs, before: end,
              edits: &edits, changed: &changed, kept: &kept)
    }

    /// `base`: the hashes of `m`'s keys as last imported; `nestedBase`: of the entries of those
    /// written as block mappings, which are merged entry by entry when both sides still are.
    private static func merge(_ m: MappingBlocks, _ t: MappingBlocks, base: [String: String], nestedBase: [String: [String: String]],
                              entries: Bool = false, only: [String]?, mine: FileBlocks, theirs: FileBlocks,
                              before end: Int, edits: inout Edits, changed: inout [String], kept: inout [String]) {
        let shift = m.indent - t.indent
        func lines(_ b: KeyBlock) -> [String] { reindented(Array(theirs.lines[b.lines]), by: shift) }
        // A target's (and the file's) `x-` keys are the mark and yours; an entry's (a header's) are real names.
        let owned = { (k: KeyBlock) in (entries || !k.key.hasPrefix("x-")) && (only?.contains(k.key) ?? true) }
        var theirKeys = t.keys.filter(owned)
        if only == nil, let notes = t.notes { theirKeys.insert(notes, at: 0) }
        var myKeys = m.keys.filter(owned)
        if only == nil, let notes = m.notes { myKeys.insert(notes, at: 0) }
        var names = theirKeys.map(\.key)
        for k in myKeys.map(\.key) where !names.contains(k) { names.append(k) }
        for k in base.keys.sorted() where !names.contains(k) && (only?.contains(k) ?? true) && (entries || !["operation", "removed"].contains(k)) { names.append(k) }
        for name in names {
            let mk = myKeys.first { $0.key == name }, tk = theirKeys.first { $0.key == name }
            let b = base[name]
            let mh = mk.map { ImportMarks.hash($0.text) }, th = tk.map { ImportMarks.hash($0.text) }
            if mh != th, let hashes = nestedBase[name], let mn = mk?.nested.first, let tn = tk?.nested.first,
               mn.notes == nil, tn.notes == nil {
                var c: [String] = [], k: [String] = []
                merge(mn, tn, base: hashes.filter { $0.key != ImportMarks.wholeKey }, nestedBase: [:], entries: true, only: nil,
                      mine: mine, theirs: theirs, before: end, edits: &edits, changed: &c, kept: &k)
                changed += c.map { "\(name).\($0)" }
                kept += k.map { "\(name).\($0)" }
                continue
            }
            switch (mk, tk) {
            case let (mk?, tk?):
                if mh == th { continue }
                if let b, mh == b {
                    edits.replace(mk.lines, with: lines(tk))
                    changed.append(name)
                } else if b == nil {
                    kept.append("\(name) (added; the description has one now too: yours kept)")
                } else {
                    kept.append(th == b ? "\(name) (edited)" : "\(name) (edited; the description changed it too: yours kept)")
                }
            case let (mk?, nil):
                if let b, mh == b {
                    edits.replace(mk.lines, with: [])
                    changed.append("\(name) removed")
                } else if b != nil {
                    kept.append("\(name) (edited; the description has none now: yours kept)")
                } else {
                    kept.append("\(name) (added)")
                }
            case let (nil, tk?):
                if let b {
                    kept.append(th == b ? "\(name) (deleted)" : "\(name) (deleted; the description changed it: not restored)")
                } else {
                    // Insert after the nearest key before it (in theirs) that mine has, else before mine's first key.
                    let index = theirKeys.firstIndex { $0.key == name }!
                    let previous = theirKeys[..<index].reversed().lazy.compactMap { p in myKeys.first { $0.key == p.key } }.first
                    let at = previous.map { $0.lines.upperBound + 1 } ?? myKeys.first?.lines.lowerBound ?? (m.keys.first?.lines.lowerBound ?? end)
                    edits.insert(at: at, lines(tk))
                    changed.append("\(name) added")
                }
            case (nil, nil):
                continue
            }
        }
    }

    /// Mine's `x-import:` replaced by theirs (added above `before` when mine has none).
    private static func replaceMarker(_ m: MappingBlocks, _ t: MappingBlocks, mine: FileBlocks, theirs: FileBlocks,
                                      before end: Int, edits: inout Edits) {
        guard let tk = t.key(ImportMarks.key) else { return }
        let new = reindented(Array(theirs.lines[tk.lines]), by: m.indent - t.indent)
        if let mk = m.key(ImportMarks.key) {
            if reindented(Array(mine.lines[mk.lines]), by: 0) != new { edits.replace(mk.lines, with: new) }
        } else if m.keyLine >= 0 {
            edits.insert(at: (m.keys.last?.lines.upperBound).map { $0 + 1 } ?? end, new)
        } else {
            edits.insert(at: end, new)
        }
    }

    static func reindented(_ lines: [String], by shift: Int) -> [String] {
        lines.map { line in
            let plain = line.hasSuffix("\r") ? String(line.dropLast()) : line
            if shift == 0 || FileBlocks.isBlank(plain) { return plain }
            if shift > 0 { return String(repeating: " ", count: shift) + plain }
            let drop = min(-shift, FileBlocks.indentation(plain))
            return String(plain.dropFirst(drop))
        }
    }
}

/// Line edits on the original text's line numbers, applied in one pass by the editor.
struct Edits {
    private var items: [(range: Range<Int>, lines: [String])] = []

    /// Replaces the lines of `range` (an empty `with` deletes them).
    mutating func replace(_ range: ClosedRange<Int>, with lines: [String]) {
        items.append((range.lowerBound..<(range.upperBound + 1), lines))
    }

    /// Inserts before line `at` (`lines.count`: at the end).
    mutating func insert(at: Int, _ lines: [String]) {
        items.append((at..<at, lines))
    }

    func apply(to editor: inout TargetFileEditor) {
        editor.apply(items)
    }
}

/// The files `import openapi --update` would write, decided before any is written: each with
/// its text before (nil: a new file) and after, and its report; the description's copy for
/// `expect: schema:` made in a staging folder beside the target file, moved into place only by
/// `commit` (`discard` removes the staging folder in every case).
package struct ImportUpdatePlan {
    package struct File {
        package var path: String
        package var old: String?
        package var new: String
        package var report: ImportUpdateReport
    }

    package var files: [File] = []
    package var warnings: [ImportWarning] = []
    /// The staging folder, and the copy in it with the folder it replaces.
    var staging: String?
    var copy: (staged: String, destination: String)?

    /// Puts the description's new copy in place of the old (kept in the staging folder), then
    /// writes each file whose text changed (atomically: a temporary file and a rename). When a
    /// file cannot be written, the old copy is put back, so the files written before it and the
    /// copy may disagree only if that too fails.
    package func commit() throws(APIError) {
        let fm = FileManager.default
        var restore: (() -> Void)?
        if let copy, Path.exists(copy.staged), let staging {
            let old = Path.join(staging, "previous.openapi")
            do {
                if Path.exists(copy.destination) { try fm.moveItem(atPath: copy.destination, toPath: old) }
                try fm.moveItem(atPath: copy.staged, toPath: copy.destination)
            } catch {
                if Path.exists(old), !Path.exists(copy.destination) { try? fm.moveItem(atPath: old, toPath: copy.destination) }
                throw .output("cannot put the description's copy in \(copy.destination): \(error)")
            }
            restore = {
                guard Path.exists(old) else { return }
                try? fm.removeItem(atPath: copy.destination)
                try? fm.moveItem(atPath: old, toPath: copy.destination)
            }
        }
        do throws(APIError) {
            for f in files where f.old != f.new { try OutputFile.write(Data(f.new.utf8), to: f.path) }
        } catch {
            restore?()
            throw error
        }
    }

    package func discard() {
        if let staging { try? FileManager.default.removeItem(atPath: staging) }
    }
}

extension OpenAPIImport {
    /// `--update`: the import planned as usual (into a staging folder when the description is
    /// copied), then each file merged into the one there (`ImportUpdate`); the paths' file must
    /// exist, the webhooks' is written new when there is none.
    package func update(_ result: ImportResult, spec: String, output: String?, directory: String) throws(APIError) -> ImportUpdatePlan {
        let main = output ?? Path.join(directory, "\(result.drafts.first?.service ?? result.webhooks?.service ?? "api").yaml")
        guard Path.isRegularFile(main) else {
            throw .output("\(main) does not exist: nothing to update (import without --update to write it, or name the file with -o)")
        }
        let folder = Path.parent(main)
        let folderReal = Path.resolved(folder.isEmpty ? "." : folder) ?? folder
        let inPlace = result.converted.isEmpty && (Path.resolved(spec) ?? spec).hasPrefix(folderReal + "/")
        var up = ImportUpdatePlan()
        var planMain = main
        if !inPlace {
            let staging = Path.join(folder, ".apicli-update-\(ProcessInfo.processInfo.processIdentifier)")
            guard Path.makeDirectories(staging) != nil else { throw .output("cannot create folder \(staging)") }
            up.staging = staging
            planMain = Path.join(staging, Path.lastComponent(main))
        }
        do throws(APIError) {
            if let staging = up.staging, let service = result.drafts.first?.service {
                // The copy: the old one's files (which targets you kept may still name), the new ones over them.
                let destination = Path.join(folder, "\(service).openapi"), staged = Path.join(staging, "\(service).openapi")
                if Path.isDirectory(destination) {
                    do { try FileManager.default.copyItem(atPath: destination, toPath: staged) } catch {
                        throw .output("cannot copy \(destination) to \(staged): \(error)")
                    }
                }
                up.copy = (staged, destination)
            }
            let plan = try self.plan(result, spec: spec, output: planMain, directory: directory, force: true)
            up.warnings = plan.warnings
            for w in plan.writes {
                let path = w.path == planMain ? main : Self.webhooksPath(beside: main)
                if let data = FileManager.default.contents(atPath: path) {
                    let old = String(decoding: data, as: UTF8.self)
                    let merged = try ImportUpdate.merge(old, file: path, with: w.draft, spec: spec,
                                                        checkAs: up.staging == nil ? nil : w.path)
                    up.files.append(.init(path: path, old: old, new: merged.text, report: merged.report))
                } else {
                    var report = ImportUpdateReport(file: path)
                    report.created = true
                    report.added = w.draft.targets.map { "\($0.name) (\(ImportMarks.identity($0)))" }
                    up.files.append(.init(path: path, old: nil, new: w.draft.text, report: report))
                }
            }
        } catch {
            up.discard()
            throw error
        }
        return up
    }
}
