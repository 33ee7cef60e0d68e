import APISupport
import APIYAML
import APIDiagnostics
import APITargets
/// `import curl --to` and `call --save`: a target added to an existing service file below its
/// last target, through the one target-file editor (every other byte kept, CRLF included). The
/// target's URL must lie under the file's `baseURL` (its path is made relative to it).
package enum TargetAppend {
    package static func append(_ target: TargetDraft, base: String, to text: String, file: String) throws(APIError) -> String {
        let root: Node?
        do { root = try YAMLParser.parse(Array(text.utf8)) } catch { throw .invalid(Diagnostic(file: file, error)) }
        guard let pairs = root?.pairs, let targetsIndex = pairs.firstIndex(where: { $0.key.scalarText == "targets" }),
              let targets = pairs[targetsIndex].value.pairs, let firstTarget = targets.first, let root else {
            throw .invalid(Diagnostic(file: file, mark: root?.mark, message: "\(file) has no block targets: mapping to add to"))
        }
        if targets.contains(where: { $0.key.scalarText == target.name }) {
            throw .invalid(Diagnostic(file: file, mark: targets.first { $0.key.scalarText == target.name }?.key.mark,
                                      message: "\(file) already has a target '\(target.name)'", hint: "pick another with --name"))
        }
        var t = target
        t.path = try relativePath(target, base: base, file: file, root: pairs)
        var block = ""
        YAMLWriter.block(.map([.pair(t.name, t.yaml)]), indent: firstTarget.key.mark.column - 1, into: &block)
        var editor = TargetFileEditor(text: text, file: file)
        try editor.appendTarget(block, root: root)
        let stem = Path.stem(Path.lastComponent(file))
        return try editor.checked(defaultName: stem, what: "adding \(t.name)") { $0.target(named: t.name) != nil }
    }

    /// The target's path below the file's base URL: `https://h/v1` + `/v1/x` … the curl URL is
    /// `base + path`, which must start with the file's `baseURL` as written.
    private static func relativePath(_ t: TargetDraft, base: String, file: String, root: [Node.Pair]) throws(APIError) -> String {
        let node = root.first { $0.key.scalarText == "baseURL" }?.value
        let fileBase = node?.scalarText ?? ""
        let full = base + t.path
        let trimmed = fileBase.hasSuffix("/") ? String(fileBase.dropLast()) : fileBase
        guard !trimmed.isEmpty, full == trimmed || full.hasPrefix(trimmed + "/") else {
            throw .invalid(Diagnostic(file: file, mark: node?.mark, message: "the URL \(full) is not under this file's baseURL \(fileBase)",
                                      hint: "import it into a file of its own: apicli import curl … > FILE"))
        }
        return String(full.dropFirst(trimmed.count))
    }
}
