import APISupport
import APIYAML
import APIJSON
import APIDiagnostics
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Decodes one target file into a `Service`, or into every problem the file has.
package enum TargetFile {
    package enum Keys {
        package static let service = ["service", "baseURL", "headers", "timeout", "validate", "targets", "doc", "tls",
                                     "auth", "rules", "environments", "followRedirects", "http2", "include"]
        package static let target = ["path", "method", "doc", "params", "task", "headers", "timeout", "validate",
                                    "sample", "samples", "expect", "check", "auth", "followRedirects", "capture", "needs", "until", "load",
                                    "stream", "when", "include",
                                    "each"]
        /// `until:`: polling.
        package static let until = ["expect", "failIf", "every", "within"]
        /// One entry of `capture:`.
        package static let capture = ["json", "header", "body", "secret", "schema"]
        package static let auth = ["bearer", "basic", "header", "value", "oauth2", "digest", "aws"]
        package static let aws = ["region", "service", "accessKey", "secretKey", "sessionToken"]
        package static let oauth2 = ["tokenURL", "clientId", "clientSecret", "scope", "grant", "username", "password", "refreshToken"]
        package static let rule = ["match", "except", "headers", "timeout", "cookies", "validate", "auth", "task",
                                  "followRedirects"]
        package static let ruleTask = ["encoding", "arrays", "bools", "contentType"]
        package static let environment = ["baseURL", "headers"]
        /// `apicli.yaml`, the project file: defaults for every service.
        package static let project = ["headers", "timeout", "validate", "auth", "rules", "environments", "doc", "load", "secrets", "cookies"]
        /// The project file's `cookies:`.
        package static let projectCookies = ["jar"]
        /// One entry of the project file's `secrets:`.
        package static let secret = ["command", "timeout"]
        package static let task = ["query", "json", "body", "contentType", "form", "parameters", "encoding", "graphql",
                                  "arrays", "bools", "multipart", "upload", "download", "websocket"]
        /// One entry of `multipart:`.
        package static let part = ["name", "file", "value", "filename", "type"]
        package static let sample = ["status", "headers", "body", "json", "file", "error", "delay", "expectFailure", "masked",
                                    "events", "messages"]
        /// One entry of a sample's `events:`.
        package static let sampleEvent = ["event", "data", "id", "retry", "delay"]
    }

    /// Reads and decodes `path`. The service is named by `service:` or else by the file's name.
    /// With `only`, just that target is decoded (libyaml reads the others; no nodes are built for them):
    /// what `call` and `show` need from a file of thousands of targets.
    package static func load(_ path: String, only: String? = nil) throws(APIError) -> Service {
        var trees: [Node]? = nil
        return try load(path, only: only, keeping: &trees)
    }

    /// `load`, appending the file's YAML tree to `trees` (when not nil) instead of freeing it: a
    /// command that exits right after keeps the trees to itself, so the process does not spend the
    /// time of freeing thousands of nodes one by one (`validate`, `list`).
    package static func load(_ path: String, only: String? = nil, keeping trees: inout [Node]?) throws(APIError) -> Service {
        try checkBeforeReading(path)
        let stem = Path.stem(Path.lastComponent(path))
        // One target of a large file: its bytes in huge pages (`HugePageRead`), only that target's lines parsed.
        // (When the scan says no, the file is read as any other, without scanning it again.)
        if let only, (Path.size(path) ?? 0) >= 1 << 20,
           let answer = HugePageRead.withFile(path, { YAMLParser.parseOneTarget($0, target: only) }) {
            guard let root = answer else { return try load(path, reading: only, keeping: &trees, scanned: true) }
            trees?.append(root)
            return try decode(root, file: path, defaultName: stem, only: only, documents: Self.noDocuments)
        }
        return try load(path, reading: only, keeping: &trees, scanned: false)
    }

    /// `load` from the file's bytes in an array; `scanned`: the one-target scan already said no.
    private static func load(_ path: String, reading only: String?, keeping trees: inout [Node]?, scanned: Bool) throws(APIError) -> Service {
        let stem = Path.stem(Path.lastComponent(path))
        guard let bytes = regularFileBytes(path) ?? FileManager.default.contents(atPath: path).map({ [UInt8]($0) })
        else { throw .invalid(unreadable(path)) }
        // One target: only that target's lines are parsed (`OneTargetParse`). The file is read, not
        // mapped: a mapped file that another process truncates meanwhile would end the process (SIGBUS).
        if let only, !scanned, let root = bytes.withUnsafeBufferPointer({ YAMLParser.parseOneTarget($0, target: only) }) {
            trees?.append(root)
            return try decode(root, file: path, defaultName: stem, only: only, documents: Self.noDocuments)
        }
        return try decode(bytes, file: path, defaultName: stem, only: only, keeping: &trees)
    }

    /// A regular file's bytes read straight into the array (a file of thousands of targets is
    /// copied once, not through `Data`); nil for anything else, or a file that changed size meanwhile.
    static func regularFileBytes(_ path: String) -> [UInt8]? {
        // O_NONBLOCK: what became a named pipe since it was looked at is not waited on (its `fstat` refuses it).
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        guard let size = RegularFile.size(fd) else { return nil }
        var complete = false
        let bytes = [UInt8](unsafeUninitializedCapacity: size + 1) { buffer, count in
            complete = RegularFile.read(fd, into: buffer.baseAddress!, size: size)
            count = complete ? size : 0
        }
        return complete ? bytes : nil
    }

    /// Why a file found in the targets folder is not read (`unreadable`, the project file, `.env`):
    /// it is not opened, since opening a named pipe waits for a writer.
    package static let notRegularFile = "it is not a regular file (a named pipe, socket or device)"

    /// Why `path` could not be read: the system's reason (`No such file or directory`), and for a
    /// folder where a file was expected, how to name a folder of target files.
    package static func unreadable(_ path: String) -> Diagnostic {
        if Path.isDirectory(path) {
            return Diagnostic(file: path, mark: nil, message: "cannot read target file: it is a folder",
                              hint: "name a folder of target files with --targets \(path)")
        }
        var info = stat()
        if stat(path, &info) == 0, info.st_mode & S_IFMT != S_IFREG {  // not opened: a named pipe would wait
            return Diagnostic(file: path, mark: nil, message: "cannot read target file: \(notRegularFile)",
                              hint: "target files are regular files: move it out of the targets folder")
        }
        let fd = open(path, O_RDONLY | O_NONBLOCK)
        let reason = fd < 0 ? String(cString: strerror(errno)) : "it cannot be read"
        if fd >= 0 { close(fd) }
        return Diagnostic(file: path, mark: nil, message: "cannot read target file: \(reason)")
    }

    /// No OpenAPI descriptions read before (a borrowed empty dictionary: a `[:]` literal's destroy
    /// makes the dictionary's type at run time).
    static let noDocuments: [String: OpenAPIContract.Document] = [:]

    /// The largest target file read, in bytes: 16 MiB, or `APICLI_MAX_TARGET_FILE_SIZE` (bytes).
    package static let defaultMaxSize = 16 << 20

    /// The one variable read (`getenv`), not the whole environment made into a dictionary at each file.
    static func maxSize() -> Int {
        getenv("APICLI_MAX_TARGET_FILE_SIZE").flatMap { Int(String(cString: $0)) }.flatMap { $0 > 0 ? $0 : nil } ?? defaultMaxSize
    }

    /// A file larger than `maxSize` is refused before it is read (exit 2), and so is what is not a
    /// regular file (a named pipe: opening one waits for a writer, forever in a folder's scan).
    static func checkBeforeReading(_ path: String) throws(APIError) {
        let limit = maxSize()
        var info = stat()
        guard stat(path, &info) == 0 else { return }
        if info.st_mode & S_IFMT != S_IFREG { throw .invalid(unreadable(path)) }
        guard Int(info.st_size) > limit else { return }
        let size = Int(info.st_size)
        throw .invalid(Diagnostic(file: path, mark: nil,
                                  message: "the target file is \(size) bytes; target files are read up to \(limit) bytes",
                                  hint: "split it, or set APICLI_MAX_TARGET_FILE_SIZE to a larger number of bytes"))
    }

    package static func decode(_ bytes: [UInt8], file: String, defaultName: String, only: String? = nil) throws(APIError) -> Service {
        var trees: [Node]? = nil
        return try decode(bytes, file: file, defaultName: defaultName, only: only, keeping: &trees)
    }

    /// `decode`, appending the YAML tree to `trees` when not nil (see `load(_:only:keeping:)`).
    package static func decode(_ bytes: [UInt8], file: String, defaultName: String, only: String? = nil,
                              keeping trees: inout [Node]?) throws(APIError) -> Service {
        try decode(bytes, file: file, defaultName: defaultName, only: only, keeping: &trees, documents: Self.noDocuments)
    }

    /// `decode`, with OpenAPI descriptions already read (by path as `openapi:` writes it): `import
    /// openapi` checks the file it writes against the description it read, and each of the
    /// description's schema nodes is compiled once for both.
    package static func decode(_ bytes: [UInt8], file: String, defaultName: String, documents: [String: OpenAPIContract.Document]) throws(APIError) -> Service {
        var trees: [Node]? = nil
        return try decode(bytes, file: file, defaultName: defaultName, only: nil, keeping: &trees, documents: documents)
    }

    private static func decode(_ bytes: [UInt8], file: String, defaultName: String, only: String?,
                               keeping trees: inout [Node]?, documents: [String: OpenAPIContract.Document]) throws(APIError) -> Service {
        if only == nil, trees == nil, let decoded = StreamedTargets.decode(bytes, file: file, defaultName: defaultName, documents: documents) {
            return try decoded.result.get()
        }
        let root: Node?
        do {
            root = try YAMLParser.parse(bytes, onlyTarget: only)
        } catch {
            throw .invalid(Diagnostic(file: file, error))
        }
        if let root { trees?.append(root) }
        return try decode(root, file: file, defaultName: defaultName, only: only, documents: documents)
    }

    /// The service of a file's YAML tree (nil: an empty file).
    static func decode(_ root: Node?, file: String, defaultName: String, only: String?,
                       documents: [String: OpenAPIContract.Document], streamed: StreamedTargets? = nil) throws(APIError) -> Service {
        guard let root, !root.isNull else {
            throw .invalid(Diagnostic(file: file, mark: Mark(line: 1, column: 1), message: "the target file is empty",
                                      hint: "a target file is a mapping with baseURL: and targets:"))
        }
        var decoder = ServiceDecoder(file: file)
        decoder.only = only
        decoder.contractDocuments = documents
        let service = decoder.service(root, defaultName: defaultName, streamed: streamed)
        if let service, decoder.reader.diagnostics.isEmpty { return service }
        throw .invalidInput(decoder.reader.diagnostics)
    }

    /// Service and target names: letters, digits, '_' and '-' (the '.' separates them on the command line).
    package static func isName(_ s: String) -> Bool {
        !s.isEmpty && s.utf8.allSatisfy(nameCharacters.contains)
    }

    /// RFC 9110 token characters (methods, header names).
    package static func isToken(_ s: String) -> Bool { HTTP1Syntax.isToken(s) }

    static let nameCharacters = Text.ByteSet("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-")

}

/// The structure of a target file, on top of `NodeReader`'s typed reads.
struct ServiceDecoder {
    var reader: NodeReader
    let folder: String
    /// Every file the service names, in order (`Service.files`).
    var files: [FileReference] = []
    /// The target being decoded, for `files`.
    private var currentTarget: String?
    /// Set: decode only this target.
    var only: String?
    /// OpenAPI descriptions read for `expect: { schema: { openapi: } }`, by path as written.
    var contractDocuments: [String: OpenAPIContract.Document] = [:]

    /// `include:`: the targets folder paths are read from, the files being included (outermost
    /// first), each file's block once read, and the service's own `include:`.
    var includeRoot: String
    var includeChain: [(shown: String, real: String)] = []
    var sharedCache: [String: SharedBlock?] = [:]
    var serviceShared: SharedBlock?
    /// false: `include:` inside a file of shared blocks checked alone is not read (`sharedProblems`).
    var followsIncludes = true
    /// A file of shared blocks: where it was first included (`file:line:col`), for its messages.
    var includedAt: String?
    /// A target had `include:` (`StreamedTargets` then gives way to one decoder).
    var includedBlocks = false
    /// The JSONPaths of `expect: { json: }` keys read so far, by text (`parsedPath`).
    var parsedPaths: [String: Result<JSONPath, JSONPathError>] = [:]

    package init(file: String) {
        reader = NodeReader(file: file)
        folder = Path.parent(file)
        includeRoot = folder
    }

    var file: String { reader.file }

    /// `streamed`: the targets of `targets:` already decoded as the file was read (the mapping is
    /// empty in `root`), see `StreamedTargets`.
    mutating func service(_ root: Node, defaultName: String, streamed: StreamedTargets? = nil) -> Service? {
        guard let entries = reader.mapping(root, "the target file", known: TargetFile.Keys.service) else { return nil }
        var name = defaultName
        var nameMark = root.mark
        var baseURL: Template?
        var service = Service(name: name, file: file, baseURL: Template("", mark: root.mark), headers: [],
                              timeout: nil, validation: nil, targets: [])
        var targetsNode: Node?
        for e in entries {
            switch MappingKey(e.key) {
            case "service":
                if let t = reader.text(e.value, "service") { name = t.text; nameMark = e.value.mark }
            case "baseURL": baseURL = self.baseURL(e.value)
            case "headers": service.headers = headers(e.value, "the service's headers") ?? []
            case "timeout": service.timeout = reader.duration(e.value, "timeout", allowZero: false)
            case "validate": service.validation = validation(e.value)
            case "targets": targetsNode = e.value
            case "tls": service.tls = tls(e.value)
            case "auth": service.auth = auth(e.value, "the service")
            case "followRedirects": service.followRedirects = reader.boolean(e.value, "followRedirects")
            case "http2":
                if let t = reader.text(e.value, "http2") {
                    if t.text == "prior-knowledge" { service.http2PriorKnowledge = true } else {
                        reader.error("http2 takes prior-knowledge, got '\(t.text)'", at: e.value.mark,
                                     hint: "write http2: prior-knowledge (HTTP/2 over cleartext http://; over https HTTP/2 is used when offered)")
                    }
                }
            case "rules": service.rules = rules(e.value)
            case "environments": service.environments = environments(e.value)
            default: break  // doc
            }
        }
        if !TargetFile.isName(name) {
            reader.error("service name '\(name)' may only hold letters, digits, '_' and '-'", at: nameMark,
                         hint: "set service: to a simple name; it is the first half of 'service.target'")
        }
        service.name = name
        if let baseURL { service.baseURL = baseURL } else {
            reader.error("the target file has no baseURL", at: root.mark, hint: "add baseURL: https://api.example.com")
        }
        guard let targetsNode else {
            reader.error("the target file has no targets", at: root.mark, hint: "add a targets: mapping of name → target")
            return nil
        }
        if let node = entries.first(where: { $0.key == "include" })?.value { includeForService(node, into: &service) }
        guard let targetEntries = reader.mapping(targetsNode, "targets") else { return nil }
        if let streamed {
            service.targets = streamed.join(into: &self)
        } else {
            service.targets = targets(targetEntries, service: name)
        }
        warnAboutVariablesThatNamePlaceholders(&service.targets)
        service.files = files
        return service
    }

    /// Decodes `entries` in order, writing each target that decodes from `start` on (room for
    /// `entries.count`); returns how many.
    mutating func decodeTargets(_ entries: ArraySlice<NodeReader.Entry>, service name: String, into start: UnsafeMutablePointer<Target>) -> Int {
        var n = 0
        for e in entries where entryTarget(e.key, e.keyMark, e.value, service: name, into: start + n) { n += 1 }
        return n
    }

    /// The target of one entry of `targets:`; nil for an `x-` key, a target other than `only`, or a problem.
    mutating func entryTarget(_ key: String, _ keyMark: Mark, _ value: Node, service name: String) -> Target? {
        withUnsafeTemporaryAllocation(of: Target.self, capacity: 1) { slot in
            entryTarget(key, keyMark, value, service: name, into: slot.baseAddress!) ? slot.baseAddress!.move() : nil
        }
    }

    /// `entryTarget`, the target written to `slot` (uninitialized; true when it was).
    mutating func entryTarget(_ key: String, _ keyMark: Mark, _ value: Node, service name: String, into slot: UnsafeMutablePointer<Target>) -> Bool {
        guard !key.hasPrefix("x-"), only == nil || key == only else { return false }
        guard TargetFile.isName(key) else {
            reader.error("target name '\(key)' may only hold letters, digits, '_' and '-'", at: keyMark)
            return false
        }
        return target(key, value, service: name, mark: keyMark, into: slot)
    }

    mutating func baseURL(_ node: Node) -> Template? {
        guard let t = reader.text(node, "baseURL") else { return nil }
        if !t.text.contains("{"), let problem = URLBuilder.problem(withBaseURL: t.text) {
            reader.error("baseURL '\(t.text)' \(problem)", at: node.mark, hint: URLBuilder.baseURLHint(t.text))
        }
        return t
    }

    /// `tls: { cacert: ca.pem, verify: false, cert: client.pem, key: client.key }`.
    private mutating func tls(_ node: Node) -> TLSOptions? {
        guard let entries = reader.mapping(node, "tls", known: ["cacert", "verify", "cert", "key", "pkcs12", "password", "keyPassword"]) else { return nil }
        var options = TLSOptions()
        for e in entries {
            switch MappingKey(e.key) {
            case "cacert": options.caFile = fileReference(e.value, "tls cacert", use: .tls)
            case "cert": options.certFile = fileReference(e.value, "tls cert", use: .tls)
            case "key": options.keyFile = fileReference(e.value, "tls key", use: .tls)
            case "pkcs12": options.pkcs12File = fileReference(e.value, "tls pkcs12", use: .tls)
            case "password", "keyPassword":
                options.passwordTemplate = reader.text(e.value, "tls \(e.key)")?.text
                options.passwordMark = e.value.mark
            default: options.verify = reader.boolean(e.value, "tls verify") ?? options.verify
            }
        }
        if options.pkcs12File != nil && options.certFile != nil {
            reader.error("tls takes cert: (PEM) or pkcs12:, not both", at: node.mark, hint: "keep one of them")
        }
        let keys = Set(entries.map(\.key))
        if keys.contains("password") && keys.contains("keyPassword") {
            reader.error("tls takes password: (a PKCS#12 bundle's) or keyPassword: (a PEM key's), not both", at: node.mark, hint: "keep one of them")
        } else if keys.contains("keyPassword") && options.pkcs12File != nil {
            reader.error("keyPassword: is a PEM key's password; a PKCS#12 bundle's is password:", at: node.mark,
                         hint: "write tls: { pkcs12: FILE, password: \"${P12_PASSWORD}\" }")
        } else if keys.contains("password") && options.certFile != nil {
            reader.error("password: is a PKCS#12 bundle's password; a PEM key's is keyPassword:", at: node.mark,
                         hint: "write tls: { cert: FILE, key: FILE, keyPassword: \"${KEY_PASS}\" }")
        }
        return options
    }

    /// The target of `node` written to `slot` (uninitialized): false, and `slot` left so, for a node that
    /// is no mapping. Built in place: a `Target` returned is copied whole (its retains and releases).
    private mutating func target(_ name: String, _ node: Node, service: String, mark: Mark, into slot: UnsafeMutablePointer<Target>) -> Bool {
        currentTarget = name
        defer { currentTarget = nil }
        guard let entries = reader.mapping(node, "target '\(name)'", known: TargetFile.Keys.target) else { return false }
        slot.initialize(to: Target(name: name, service: service, mark: mark, doc: nil, path: nil, method: "GET", params: [],
                                   task: RequestTask(), headers: [], timeout: nil, validation: nil, sample: nil, samples: []))
        fill(&slot.pointee, entries, service: service)
        return true
    }

    /// The rest of `target`: `entries` read into the new `target`.
    private mutating func fill(_ target: inout Target, _ entries: [NodeReader.Entry], service: String) {
        let name = target.name
        // Spelled only for a message: most targets have no problem to report.
        func what() -> String { "target '\(name)'" }
        // The method first: where a task's parameters go depends on it.
        let warned = reader.warnings.count
        if let node = entries.value(of: "method") { target.method = method(node) ?? target.method }
        var includeNode: Node?
        // By index, each entry's key and value read in place (`for e in entries` copied every entry).
        for i in entries.indices {
            let value = entries[i].value
            switch MappingKey(entries[i].key) {
            case "path": target.path = path(value)
            case "method": break
            case "doc": target.doc = reader.text(value, "doc")?.text
            case "params": target.params = params(value)
            case "task": target.task = task(value, method: target.method) ?? target.task
            case "headers": target.headers = headers(value, "the headers of \(what())") ?? []
            case "timeout": target.timeout = reader.duration(value, "timeout", allowZero: false)
            case "validate": target.validation = validation(value)
            case "sample": target.sample = sample(value, "the sample of \(what())")
            case "samples": target.samples = samples(value, what())
            case "expect": targetExpect(value, what(), into: &target)
            case "when": target.when = when(value)
            case "include": includeNode = value
            case "check": target.check = reader.boolean(value, "check")
            case "auth": target.auth = auth(value, what())
            case "followRedirects": target.followRedirects = reader.boolean(value, "followRedirects")
            case "capture": target.captures = captures(value, what())
            case "needs": target.needs = needs(value)
            case "until": target.until = until(value, what())
            case "load": target.load = load(value, target: service + "." + name)
            case "stream": target.stream = streamSettings(value)
            case "each": target.each = each(value, what())
            default: break
            }
        }
        if includeNode != nil { includedBlocks = true }
        includeForTarget(includeNode)?.apply(to: &target)
        if target.task.websocket != nil, (target.stream?.reconnects ?? 0) > 0,
           let node = entries.value(of: "stream") {
            reader.error("stream: { reconnect: } resumes an event stream, not a WebSocket conversation", at: node.mark,
                         hint: "remove reconnect:; a conversation is not sent again")
        }
        if let ws = target.task.websocket, !ws.expect.isEmpty {
            var expect = target.expect ?? Expectations(mark: ws.mark)
            expect.messages = ws.expect
            target.expect = expect
        }
        if case .graphql(let op) = target.task.body { graphqlDefaults(&target, op, methodWritten: entries.value(of: "method") != nil) }
        if HTTPMethods.bodyless.contains(target.method),
           let taskNode = entries.value(of: "task"),
           let key = taskNode.pairs?.first(where: { $0.key.scalarText == "multipart" || $0.key.scalarText == "upload" })?.key {
            let kind = key.scalarText ?? ""
            reader.error("\(kind) needs a method that carries a body; \(target.method) does not", at: key.mark,
                         hint: "set method: POST (or PUT, PATCH) on target '\(name)'")
        }
        target.warnings = Array(reader.warnings[warned...])
    }

    private mutating func path(_ node: Node) -> Template? {
        if node.isNull { return nil }
        guard let t = reader.text(node, "path") else { return nil }
        func queryOrFragment(_ b: UInt8) -> Bool { b == UInt8(ascii: "?") || b == UInt8(ascii: "#") }
        // The bytes in one buffer when the text has them so (always, read from a file): not a UTF-8 view walked.
        if t.text.utf8.withContiguousStorageIfAvailable({ $0.contains(where: queryOrFragment) })
            ?? t.text.utf8.contains(where: queryOrFragment) {
            reader.error("path holds a query or fragment", at: node.mark,
                         hint: "put query parameters in task: { query: { name: value } }")
        }
        return t
    }

    /// `method: GET`, or `method: { custom: NAME }` for a method of one's own (no warning).
    /// A token that is neither standard nor in `HTTPMethods.known` is sent as written, with a warning.
    private mutating func method(_ node: Node) -> String? {
        var custom = false
        var valueNode = node
        if node.pairs != nil {
            guard let entries = reader.mapping(node, "method", known: ["custom"]) else { return nil }
            guard let entry = entries.first(where: { $0.key == "custom" }) else {
                reader.error("method: { } needs custom: NAME", at: node.mark, hint: "method: { custom: PURGE }")
                return nil
            }
            custom = true
            valueNode = entry.value
        }
        guard let t = reader.text(valueNode, "method") else { return nil }
        guard TargetFile.isToken(t.text) else {
            reader.error("method '\(t.text)' is not an HTTP method token", at: valueNode.mark,
                         hint: "use GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS or another RFC 9110 token")
            return nil
        }
        let method = t.text.uppercased()
        if !custom, !HTTPMethods.standard.contains(method), !HTTPMethods.known.contains(method) {
            let closest = Suggestions.closest(to: method, in: HTTPMethods.standard, limit: 1).first
            reader.warn("'\(method)' is not a standard HTTP method; it is sent as written", at: valueNode.mark,
                        hint: (closest.map { "did you mean \($0)? " } ?? "")
                            + "(for a method of your own: method: { custom: \(method) })")
        }
        return method
    }

    private mutating func params(_ node: Node) -> [(name: String, value: Template)] {
        guard let entries = reader.mapping(node, "params") else { return [] }
        return entries.compactMap { e in reader.text(e.value, "param '\(e.key)'").map { (e.key, $0) } }
    }

    mutating func headers(_ node: Node, _ what: @autoclosure () -> String) -> [Header]? {
        guard let entries = reader.mapping(node, what()) else { return nil }
        var headers: [Header] = []
        for e in entries {
            guard TargetFile.isToken(e.key) else {
                reader.error("'\(e.key)' is not a valid header name", at: e.keyMark,
                             hint: "header names are letters, digits and !#$%&'*+-.^_`|~")
                continue
            }
            guard let value = reader.text(e.value, "header '\(e.key)'") else { continue }
            if value.text.contains(where: { $0 == "\n" || $0 == "\r" }) {
                reader.error("header '\(e.key)' holds a line break", at: e.value.mark)
                continue
            }
            headers.append(Header(name: e.key, value: value))
        }
        return headers
    }

    mutating func validation(_ node: Node) -> Validation? {
        if let items = node.items {
            if items.isEmpty {
                reader.error("validate: [] accepts no status at all", at: node.mark,
                             hint: "list the accepted codes, like [200, 304], or write validate: none")
                return nil
            }
            let codes = items.compactMap { reader.integer($0, "a status code in validate", in: 100...599) }
            return codes.count == items.count ? .codes(codes) : nil
        }
        guard let t = reader.text(node, "validate") else { return nil }
        switch t.text {
        case "none": return Validation.none
        case "success": return .success
        case "successAndRedirect": return .successAndRedirect
        default:
            reader.error("unknown validate '\(t.text)'", at: node.mark,
                         hint: Suggestions.hint(for: t.text, in: Validation.names)
                            ?? "use none, success, successAndRedirect or a list of codes like [200, 304]")
            return nil
        }
    }

    /// A path relative to the target file's folder. Whether the file exists is checked when it
    /// is used (`FileCheck`), so a missing file fails only the target that names it.
    mutating func fileReference(_ node: Node, _ what: String, use: FileReference.Use) -> String? {
        guard let t = reader.text(node, what) else { return nil }
        let path = t.text.hasPrefix("/") ? t.text : Path.join(folder, t.text)
        files.append(FileReference(what: what, written: t.text, path: path, mark: node.mark, use: use, target: currentTarget))
        return path
    }
}
