import APISupport
import APIYAML
import APIDiagnostics
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension TargetFile {
    /// What a file of shared blocks is named: `auth.inc.yaml` (anywhere in the targets folder).
    /// The catalog never reads one as a service file; `validate` checks a named one on its own.
    package static let sharedSuffixes = [".inc.yaml", ".inc.yml"]
    /// `include:` inside included files: at most this many files deep.
    package static let maxIncludeDepth = 8

    package static func isSharedFile(_ path: String) -> Bool {
        sharedSuffixes.contains { path.hasSuffix($0) }
    }

    /// The problems of a file of shared blocks read alone, or of each one in a folder of them:
    /// what `validate` reports for a `.inc.yaml` or a folder it is named (`validate targets/*`).
    /// Its own `include:`s are not followed (where they are read from depends on the service
    /// file that includes it; they are checked there); nil: `path` is neither.
    package static func sharedProblems(_ path: String) -> [Diagnostic]? {
        if Path.isDirectory(path) {
            let names = ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).filter(isSharedFile).sorted()
            return names.isEmpty ? nil : names.flatMap { sharedProblems(Path.join(path, $0)) ?? [] }
        }
        guard isSharedFile(path) else { return nil }
        var decoder = ServiceDecoder(file: path)
        decoder.followsIncludes = false
        _ = decoder.readShared(path)
        return decoder.reader.diagnostics
    }
}

extension TargetFile.Keys {
    /// The keys a file of shared blocks may hold (`include:` follows more of them).
    package static let shared = ["headers", "auth", "expect", "timeout", "validate", "include", "doc"]
}

/// What `include:` gives: the keys of one or more files of shared blocks, merged.
struct SharedBlock: Sendable {
    var headers: [Header] = []
    var auth: Auth?
    var expect: Expectations?
    var conditionalExpect: [ConditionalExpectations] = []
    var timeout: Double?
    var validation: Validation?

    /// `self` (the including file's own keys) over `base`: what `self` writes wins; headers add up
    /// (a name in both is `self`'s), expectations merge (`Expectations.merged(over:)`).
    func merged(over base: SharedBlock) -> SharedBlock {
        var out = self
        out.headers = Self.headers(headers, over: base.headers)
        out.auth = auth ?? base.auth
        out.expect = Self.expect(expect, over: base.expect)
        out.conditionalExpect = base.conditionalExpect + conditionalExpect
        out.timeout = timeout ?? base.timeout
        out.validation = validation ?? base.validation
        return out
    }

    static func headers(_ own: [Header], over base: [Header]) -> [Header] {
        base.filter { h in !own.contains { $0.name.lowercased() == h.name.lowercased() } } + own
    }

    static func expect(_ own: Expectations?, over base: Expectations?) -> Expectations? {
        guard let base else { return own }
        return own.map { $0.merged(over: base) } ?? base
    }

    /// A target's own keys over this block.
    func apply(to target: inout Target) {
        target.headers = Self.headers(target.headers, over: headers)
        if target.auth == nil { target.auth = auth }
        target.expect = Self.expect(target.expect, over: expect)
        if !conditionalExpect.isEmpty { target.conditionalExpect = conditionalExpect + target.conditionalExpect }
        target.timeout = target.timeout ?? timeout
        target.validation = target.validation ?? validation
    }
}

/// `include:` of files of shared blocks, on a target or on the service. Paths are relative to
/// the targets folder (the service file's folder), also inside included files; a path that is
/// absolute, holds `..`, or leads out of the folder through a symbolic link is refused, and so is
/// a cycle and a chain deeper than `TargetFile.maxIncludeDepth`. Each file is read once per
/// service file; its problems are reported at its own lines.
extension ServiceDecoder {
    /// `include: shared/auth.inc.yaml` or a list of them (a later file wins over an earlier one).
    mutating func include(_ node: Node) -> SharedBlock {
        var out = SharedBlock()
        for item in node.items ?? [node] {
            guard let t = reader.text(item, "include") else { continue }
            if let block = sharedFile(t.text, mark: item.mark, shownFrom: file) { out = block.merged(over: out) }
        }
        return out
    }

    /// The block of one included file, or nil (its problem reported at `mark`, in this decoder's file).
    mutating func sharedFile(_ written: String, mark: Mark, shownFrom: String?) -> SharedBlock? {
        let chain = (includeChain.isEmpty ? [shownFrom ?? file] : includeChain.map(\.shown))
        func refuse(_ message: String, _ hint: String) -> SharedBlock? {
            reader.error("include: '\(written)' \(message)", at: mark, hint: hint)
            return nil
        }
        // Inside an included file, the chain that led there.
        let through = includeChain.isEmpty ? "" : " (included through " + chain.joined(separator: " → ") + ")"
        if let (message, hint) = Self.refusal(written) { return refuse(message + through, hint) }
        let path = Path.join(includeRoot, written)
        guard let real = Path.resolved(path), Path.isRegularFile(real) else {
            return refuse((Path.exists(path) ? "is not a regular file" : "is not there (\(path))") + through,
                          "create it, or fix the path (it is read from \(includeRoot.isEmpty ? "." : includeRoot))")
        }
        guard let root = Path.resolved(includeRoot.isEmpty ? "." : includeRoot), real.hasPrefix(root.hasSuffix("/") ? root : root + "/") else {
            return refuse("leads outside the targets folder (through a symbolic link, to \(real))" + through, "copy the file into the targets folder")
        }
        let shown = path
        if includeChain.contains(where: { $0.real == real }) {
            return refuse("makes a cycle: " + (chain + [shown]).joined(separator: " → "), "remove one of these include: entries")
        }
        let depth = max(includeChain.count, 1)  // the chain holds the service file first: its own include is 1
        guard depth <= TargetFile.maxIncludeDepth else {
            return refuse("is \(depth) includes deep; at most \(TargetFile.maxIncludeDepth) are followed: " + (chain + [shown]).joined(separator: " → "),
                          "include the files from one place instead of from each other")
        }
        if let known = sharedCache[real] { return known }
        var sub = ServiceDecoder(file: path)
        sub.includeRoot = includeRoot
        sub.includedAt = "\(file):\(mark)"
        sub.includeChain = (includeChain.isEmpty ? [(shown: shownFrom ?? file, real: "")] : includeChain) + [(shown, real)]
        sub.sharedCache = sharedCache
        let block = sub.readShared(path)
        reader.append(sub.reader)
        files += sub.files
        sharedCache = sub.sharedCache
        sharedCache[real] = .some(block)
        return block
    }

    /// Why a path as written is refused before anything is read: absolute, `..`, not `*.inc.yaml`.
    private static func refusal(_ written: String) -> (String, String)? {
        if written.hasPrefix("/") || written.hasPrefix("~") {
            return ("is an absolute path; included files are inside the targets folder", "write a path from the targets folder, like shared/auth.inc.yaml")
        }
        if written.split(separator: "/").contains("..") || written.contains("\\") {
            return ("leaves the targets folder (..)", "move the file into the targets folder and write its path from there")
        }
        guard TargetFile.isSharedFile(written) else {
            return ("is not a file of shared blocks: their names end in .inc.yaml",
                    "rename it (e.g. \(Path.stem(Path.lastComponent(written))).inc.yaml): the catalog reads every other .yaml file as a service file")
        }
        return nil
    }

    /// Reads and decodes a file of shared blocks (this decoder's file).
    mutating func readShared(_ path: String) -> SharedBlock? {
        do throws(APIError) {
            try TargetFile.checkBeforeReading(path)
        } catch {
            if case .invalidInput(let d) = error { for x in d { reader.error(x.message, at: x.mark ?? Mark(line: 1, column: 1), hint: x.hint) } }
            return nil
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            reader.error("cannot read the included file", at: Mark(line: 1, column: 1))
            return nil
        }
        let root: Node?
        do {
            root = try YAMLParser.parse([UInt8](data))
        } catch {
            reader.error(error.message, at: error.mark, hint: error.hint)
            return nil
        }
        let what = "a file of shared blocks" + (includedAt.map { " (included at \($0))" } ?? "")
        guard let root, let entries = reader.mapping(root, what, known: TargetFile.Keys.shared) else {
            if root == nil { reader.error("\(what) is empty", at: Mark(line: 1, column: 1), hint: "write headers:, auth: or expect: in it") }
            return nil
        }
        var own = SharedBlock()
        var included = SharedBlock()
        for e in entries {
            switch MappingKey(e.key) {
            case "headers": own.headers = headers(e.value, "the shared headers") ?? []
            case "auth": own.auth = auth(e.value, "the shared block")
            case "expect":
                var holder = Target(name: "", service: "", mark: e.value.mark, doc: nil, path: nil, method: "GET", params: [],
                                    task: RequestTask(), headers: [], timeout: nil, validation: nil, sample: nil, samples: [])
                targetExpect(e.value, "the shared block", into: &holder)
                (own.expect, own.conditionalExpect) = (holder.expect, holder.conditionalExpect)
            case "timeout": own.timeout = reader.duration(e.value, "timeout", allowZero: false)
            case "validate": own.validation = validation(e.value)
            case "include": if followsIncludes { included = include(e.value) }
            default: break  // doc
            }
        }
        return own.merged(over: included)
    }
}

extension ServiceDecoder {
    /// The service's `include:`: its headers, auth, timeout and validate under the service's
    /// own; its `expect:` under every target's (`serviceShared`).
    mutating func includeForService(_ node: Node, into service: inout Service) {
        let block = include(node)
        service.headers = SharedBlock.headers(service.headers, over: block.headers)
        if service.auth == nil { service.auth = block.auth }
        service.timeout = service.timeout ?? block.timeout
        service.validation = service.validation ?? block.validation
        if block.expect != nil || !block.conditionalExpect.isEmpty {
            var expect = SharedBlock()
            (expect.expect, expect.conditionalExpect) = (block.expect, block.conditionalExpect)
            serviceShared = expect
        }
    }

    /// What a target gets from its `include:` (over the service's included `expect:`), or nil.
    mutating func includeForTarget(_ node: Node?) -> SharedBlock? {
        guard let node else { return serviceShared }
        let block = include(node)
        return serviceShared.map { block.merged(over: $0) } ?? block
    }
}
