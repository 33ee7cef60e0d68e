import APIYAML
import APIJSON
/// `task:` and `sample:` blocks of a target.
extension ServiceDecoder {
    /// `method`: where `parameters:` go (a body for POST with `encoding: url`).
    mutating func task(_ node: Node, method: String) -> RequestTask? {
        guard let entries = reader.mapping(node, "task", known: TargetFile.Keys.task) else { return nil }
        var task = RequestTask()
        task.declared = entries.map(\.key)
        var bodyKeys: [(String, Mark)] = []
        for e in entries {
            switch MappingKey(e.key) {
            case "query":
                task.query = e.value.pairs == nil && e.value.items == nil
                    ? reader.text(e.value, "task query").map { .string($0) } : parameterMapping(e.value, "task query")
            case "json":
                task.body = reader.value(e.value, "task json").map { .json($0) }
                bodyKeys.append((e.key, e.keyMark))
            case "form":
                task.body = parameterMapping(e.value, "task form").map { .form($0) }
                bodyKeys.append((e.key, e.keyMark))
            case "body":
                task.body = rawBody(e.value)
                bodyKeys.append((e.key, e.keyMark))
            case "multipart":
                task.body = multipart(e.value).map { .multipart($0) }
                bodyKeys.append((e.key, e.keyMark))
            case "graphql":
                task.body = graphql(e.value).map { .graphql($0) }
                bodyKeys.append((e.key, e.keyMark))
            case "websocket":
                task.websocket = websocket(e.value)
                if method != "GET" {
                    reader.error("a websocket task opens with a GET, not \(method)", at: e.keyMark, hint: "remove method: (GET is the default)")
                }
                bodyKeys.append((e.key, e.keyMark))
            case "upload":
                task.body = fileReference(e.value, "upload file", use: .request).map { .upload($0, mark: e.value.mark) }
                bodyKeys.append((e.key, e.keyMark))
            case "download":
                task.download = downloadPath(e.value)
            case "parameters":
                task.parameters = parameterMapping(e.value, "task parameters")
            case "contentType":
                task.contentType = reader.text(e.value, "contentType")
            case "encoding":
                task.encoding = reader.choice(e.value, "encoding", as: ParameterEncoding.self) ?? task.encoding
            case "arrays":
                task.arrays = reader.choice(e.value, "arrays", as: ArrayEncoding.self) ?? task.arrays
            case "bools":
                task.bools = reader.choice(e.value, "bools", as: BoolEncoding.self) ?? task.bools
            default: break
            }
        }
        if task.parameters != nil, task.parametersInBody(method: method),
           let mark = entries.first(where: { $0.key == "parameters" })?.keyMark {
            bodyKeys.append(("parameters (encoding: \(task.encoding.rawValue))", mark))
        }
        oneBody(bodyKeys, "task has more than one body",
                hint: "a request carries one body; combine query: with one of json:, form:, body:, multipart:, upload:, graphql:, websocket:"
                    + (task.encoding == .url && task.parameters != nil ? ", or set encoding: query to send parameters in the URL" : ""))
        if case .multipart? = task.body, let mark = entries.first(where: { $0.key == "contentType" })?.keyMark {
            reader.error("a multipart task sets its own Content-Type (with the boundary)", at: mark,
                         hint: "remove contentType:; a part's type goes in the part: { name: …, file: …, type: image/png }")
        }
        return task
    }

    /// The one-body rule of tasks and samples: a second body key is an error at its place.
    private mutating func oneBody(_ keys: [(String, Mark)], _ message: @autoclosure () -> String,
                                  hint: @autoclosure () -> String) {
        guard keys.count > 1 else { return }
        reader.error("\(message()): \(keys.map(\.0).joined(separator: " and "))", at: keys[1].1, hint: hint())
    }

    /// `multipart:` — a list of `{ name, value }` and `{ name, file, filename?, type? }` parts.
    private mutating func multipart(_ node: Node) -> [FormPart]? {
        guard let items = node.items else {
            reader.error("multipart must be a list of parts, not \(node.kindName)", at: node.mark,
                         hint: "write multipart: [{ name: file, file: path/to/file }, { name: note, value: text }]")
            return nil
        }
        if items.isEmpty {
            reader.error("multipart: [] has no parts", at: node.mark, hint: "list at least one { name: …, value: … } or { name: …, file: … }")
            return nil
        }
        var parts: [FormPart] = []
        for item in items {
            if let part = formPart(item) { parts.append(part) }
        }
        return parts.count == items.count ? parts : nil
    }

    private mutating func formPart(_ node: Node) -> FormPart? {
        guard let entries = reader.mapping(node, "a multipart part", known: TargetFile.Keys.part) else { return nil }
        var name: String?
        var content: FormPart.Content?
        var filename: String?
        var type: String?
        var contentKeys: [(String, Mark)] = []
        var ok = true
        for e in entries {
            switch MappingKey(e.key) {
            case "name": name = reader.text(e.value, "part name")?.text
            case "value":
                contentKeys.append((e.key, e.keyMark))
                if let t = reader.text(e.value, "part value") { content = .value(t) } else { ok = false }
            case "file":
                contentKeys.append((e.key, e.keyMark))
                if let path = fileReference(e.value, "part file", use: .request) { content = .file(path) } else { ok = false }
            case "filename": filename = reader.text(e.value, "part filename")?.text
            case "type":
                type = reader.text(e.value, "part type")?.text
                if let t = type, t.contains(where: { $0 == "\n" || $0 == "\r" }) {
                    reader.error("part type holds a line break", at: e.value.mark)
                    ok = false
                }
            default: break
            }
        }
        if name == nil || name?.isEmpty == true {
            reader.error("a multipart part needs a name:", at: node.mark, hint: "write { name: field, value: text } or { name: field, file: path }")
            ok = false
        }
        if contentKeys.count > 1 {
            reader.error("a multipart part takes value: or file:, not both", at: contentKeys[1].1)
            ok = false
        } else if contentKeys.isEmpty {
            reader.error("a multipart part needs value: or file:", at: node.mark,
                         hint: "write { name: \(name ?? "field"), value: text } or { name: \(name ?? "field"), file: path }")
            ok = false
        }
        guard ok, let name, let content else { return nil }
        return FormPart(name: name, content: content, filename: filename, type: type, mark: node.mark)
    }

    /// `download: path` — relative to the working directory; `{params}` are expanded at call time.
    private mutating func downloadPath(_ node: Node) -> Template? {
        guard let t = reader.text(node, "download") else { return nil }
        if t.text.isEmpty || t.text.hasSuffix("/") {
            reader.error("download must name a file, not '\(t.text)'", at: node.mark,
                         hint: "write download: downloads/{id}.bin (relative to the working directory)")
            return nil
        }
        return t
    }

    /// Query, form and parameter blocks are mappings (values may nest: `k[sub]=v`).
    private mutating func parameterMapping(_ node: Node, _ what: String) -> Value? {
        guard node.pairs != nil else {
            reader.error("\(what) must be a mapping of name → value, not \(node.kindName)", at: node.mark)
            return nil
        }
        return reader.value(node, what)
    }

    /// `body: text` or `body: { file: path }`.
    private mutating func rawBody(_ node: Node) -> RequestTask.Body? {
        if node.pairs != nil {
            guard let entries = reader.mapping(node, "body", known: ["file"]) else { return nil }
            guard let fileNode = entries.first?.value else {
                reader.error("body mapping needs file:", at: node.mark, hint: "write body: { file: path/to/file }")
                return nil
            }
            return fileReference(fileNode, "body file", use: .request).map { .file($0, mark: fileNode.mark) }
        }
        return reader.text(node, "body").map { .text($0) }
    }

    mutating func sample(_ node: Node, _ what: @autoclosure () -> String) -> Sample? {
        guard let entries = reader.mapping(node, what(), known: TargetFile.Keys.sample) else { return nil }
        var sample = Sample(mark: node.mark)
        var bodyKeys: [(String, Mark)] = []
        for e in entries {
            switch MappingKey(e.key) {
            case "status":
                sample.status = reader.integer(e.value, "sample status", in: 100...599) ?? sample.status
            case "headers":
                sample.headers = headers(e.value, "the headers of \(what())") ?? []
            case "body":
                sample.body = reader.text(e.value, "sample body").map { .text($0) }
                bodyKeys.append((e.key, e.keyMark))
            case "json":
                sample.body = reader.value(e.value, "sample json").map { .json($0) }
                bodyKeys.append((e.key, e.keyMark))
            case "file":
                sample.body = fileReference(e.value, "sample file", use: .sample).map { .file($0, mark: e.value.mark) }
                bodyKeys.append((e.key, e.keyMark))
            case "events":
                sample.events = sampleEvents(e.value)
                bodyKeys.append((e.key, e.keyMark))
            case "messages":
                sample.messages = sampleMessages(e.value)
                bodyKeys.append((e.key, e.keyMark))
            case "error":
                sample.error = reader.text(e.value, "sample error")?.text
                bodyKeys.append((e.key, e.keyMark))
            case "delay":
                sample.delay = reader.duration(e.value, "sample delay", allowZero: true) ?? 0
            case "expectFailure":
                sample.expectFailure = reader.boolean(e.value, "expectFailure") ?? false
            case "masked":
                sample.masked = maskedPaths(e.value)
            default: break
            }
        }
        oneBody(bodyKeys, "\(what()) has more than one body", hint: "a sample takes one of body:, json:, file:, events:, messages:, error:")
        return sample
    }

    /// `masked: [$.token, $.items[*].id]`: JSONPaths `record --mask` replaced, which drift skips.
    mutating func maskedPaths(_ node: Node) -> [String] {
        guard let items = node.items else {
            reader.error("masked must be a list of JSONPaths, not \(node.kindName)", at: node.mark, hint: "write masked: [$.token]")
            return []
        }
        return items.compactMap { item in
            guard let path = reader.text(item, "masked path")?.text else { return nil }
            guard path.hasPrefix("$") else {
                reader.error("'\(path)' is not a JSONPath", at: item.mark, hint: "start it with $, like $.token")
                return nil
            }
            return path
        }
    }

    mutating func samples(_ node: Node, _ what: String) -> [(name: String, sample: Sample)] {
        guard let entries = reader.mapping(node, "samples of \(what)") else { return [] }
        return entries.filter { !$0.key.hasPrefix("x-") }.compactMap { e in
            sample(e.value, "sample '\(e.key)' of \(what)").map { (e.key, $0) }
        }
    }
}
