/// Adds a target to an existing service file's text, below its last target, keeping every other
/// byte. The target's URL must lie under the file's `baseURL` (its path is made relative to it).
public enum TargetAppend {
    public static func append(_ target: TargetDraft, base: String, to text: String, file: String) throws(APIError) -> String {
        let root: Node?
        do { root = try YAMLParser.parse(Array(text.utf8)) } catch { throw .invalid(Diagnostic(file: file, error)) }
        guard let pairs = root?.pairs, let targetsIndex = pairs.firstIndex(where: { $0.key.scalarText == "targets" }),
              let targets = pairs[targetsIndex].value.pairs, let firstTarget = targets.first else {
            throw .invalid(Diagnostic(file: file, mark: root?.mark, message: "\(file) has no block targets: mapping to add to"))
        }
        if targets.contains(where: { $0.key.scalarText == target.name }) {
            throw .invalid(Diagnostic(file: file, mark: targets.first { $0.key.scalarText == target.name }?.key.mark,
                                      message: "\(file) already has a target '\(target.name)'", hint: "pick another with --name"))
        }
        var t = target
        t.path = try relativePath(target, base: base, file: file, root: pairs)
        let indent = firstTarget.key.mark.column - 1
        var block = ""
        YAMLWriter.block(.map([.pair(t.name, t.yaml)]), indent: indent, into: &block)
        return insert(block, into: text, beforeLine: targetsIndex + 1 < pairs.count ? pairs[targetsIndex + 1].key.mark.line : nil)
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

    /// `block` inserted before line `line` (1-based), or at the end (with a newline before it if needed).
    private static func insert(_ block: String, into text: String, beforeLine line: Int?) -> String {
        guard let line else { return text + (text.hasSuffix("\n") || text.isEmpty ? "" : "\n") + block }
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let at = min(line - 1, lines.count)
        lines.insert(contentsOf: block.dropLast().split(separator: "\n", omittingEmptySubsequences: false), at: at)
        return lines.joined(separator: "\n")
    }
}
