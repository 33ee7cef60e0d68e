import APIYAML
/// The parts of a Swagger 2.0 description converted one by one (see `Swagger2`): parameters,
/// bodies, responses, schemas, security schemes, `$ref`s.
extension Swagger2 {
    /// Keys of a Swagger parameter (or Items, or Header) object that describe its value: its schema.
    static let schemaKeys: Set<String> = [
        "type", "format", "items", "default", "maximum", "exclusiveMaximum", "minimum", "exclusiveMinimum",
        "maxLength", "minLength", "pattern", "maxItems", "minItems", "uniqueItems", "enum", "multipleOf", "x-nullable",
    ]

    /// A query, header or path parameter (a `$ref` to another file stays one, rewritten).
    func parameter(_ raw: SpecNode) -> Node {
        if raw.ref != nil { return Self.rewritingRefs(raw.node) }
        let p = resolved(raw)
        var out: [(String, Node)] = []
        for (key, _, value) in p.entries where !Self.schemaKeys.contains(key) && key != "collectionFormat" {
            out.append((key == "x-example" ? "example" : key, value.node))
        }
        out.append(("schema", itemsSchema(p)))
        out += style(p, location: p["in"]?.text ?? "query")
        return map(out, p.mark)
    }

    /// `collectionFormat` → `style`/`explode` (Swagger's default, `csv`, is not OpenAPI 3's
    /// default for the query: it is written out).
    func style(_ p: SpecNode, location: String) -> [(String, Node)] {
        guard p["type"]?.text == "array" else { return [] }
        let format = p["collectionFormat"]?.text ?? "csv"
        let mark = p["collectionFormat"]?.mark ?? p.mark
        let query = location == "query" || location == "formData"
        switch (format, query) {
        case ("multi", true): return [("style", plain("form", mark)), ("explode", plain("true", mark))]
        case ("csv", true): return [("style", plain("form", mark)), ("explode", plain("false", mark))]
        case ("ssv", true): return [("style", plain("spaceDelimited", mark)), ("explode", plain("false", mark))]
        case ("pipes", true): return [("style", plain("pipeDelimited", mark)), ("explode", plain("false", mark))]
        case ("csv", false): return []
        default:
            warn(SpecNode(node: (p["collectionFormat"] ?? p).node, file: root.file).warning(
                "collectionFormat '\(format)' of parameter '\(p["name"]?.text ?? "?")' has no OpenAPI 3 style in the \(location); sent comma-separated"))
            return query ? [("style", plain("form", mark)), ("explode", plain("false", mark))] : []
        }
    }

    /// The schema a parameter, Items or Header object gives its value.
    func itemsSchema(_ p: SpecNode) -> Node {
        if let s = p["schema"] { return schema(s) }
        var out: [(String, Node)] = []
        for (key, _, value) in p.entries where Self.schemaKeys.contains(key) {
            switch key {
            case "items": out.append(("items", itemsSchema(value)))
            case "type" where value.text == "file":
                out += [("type", text("string", value.mark)), ("format", text("binary", value.mark))]
            case "format" where p["type"]?.text == "file": continue
            case "x-nullable": if value.bool == true { out.append(("nullable", plain("true", value.mark))) }
            default: out.append((key, value.node))
            }
        }
        if let example = p["x-example"], p["in"] == nil { out.append(("example", example.node)) }
        return map(out, p.mark)
    }

    /// `in: body` → `requestBody`, one media type per `consumes` entry.
    func requestBody(_ p: SpecNode, consumes: [String]) -> Node {
        var out: [(String, Node)] = []
        if let d = p["description"] { out.append(("description", d.node)) }
        if let r = p["required"] { out.append(("required", r.node)) }
        if p["schema"] == nil { warn(p.warning("body parameter '\(p["name"]?.text ?? "?")' has no schema: (Swagger 2.0 requires one); its body is built from nothing")) }
        let schema = p["schema"].map(schema) ?? map([], p.mark)
        let examples = p["x-examples"]
        let content = consumes.map { type -> (String, Node) in
            var media: [(String, Node)] = [("schema", schema)]
            if let e = examples?[type] ?? p["x-example"] { media.append(("example", e.node)) }
            return (type, map(media, p.mark))
        }
        out.append(("content", map(content, p.mark)))
        return map(out, p.mark)
    }

    /// `in: formData` parameters → one object schema, sent as a form (multipart when `consumes`
    /// says so or a parameter is a file).
    func formBody(_ params: [SpecNode], consumes: [String], at mark: Mark) -> Node {
        // A file needs multipart; else the form type `consumes` names (urlencoded first), else urlencoded.
        let multipart = params.contains { $0["type"]?.text == "file" }
            || consumes.contains("multipart/form-data") && !consumes.contains("application/x-www-form-urlencoded")
        let type = multipart ? "multipart/form-data" : "application/x-www-form-urlencoded"
        var properties: [(String, Node)] = []
        var required: [Node] = []
        var encoding: [(String, Node)] = []
        for p in params {
            guard let name = p["name"]?.text else {
                warn(p.warning("a formData parameter without name: is left out"))
                continue
            }
            var s = itemsSchema(p)
            var extra: [(String, Node)] = []
            if let d = p["description"] { extra.append(("description", d.node)) }
            if let e = p["x-example"] { extra.append(("example", e.node)) }
            if case .mapping(let pairs) = s.content {
                s.content = .mapping(pairs + extra.map { Node.Pair(key: plain($0.0, $0.1.mark), value: $0.1) })
            }
            properties.append((name, s))
            if p["required"]?.bool == true { required.append(text(name, p.mark)) }
            let st = style(p, location: "formData")
            if !st.isEmpty, !multipart { encoding.append((name, map(st, p.mark))) }
        }
        var schema: [(String, Node)] = [("type", text("object", mark)), ("properties", map(properties, mark))]
        if !required.isEmpty { schema.append(("required", list(required, mark))) }
        var media: [(String, Node)] = [("schema", map(schema, mark))]
        if !encoding.isEmpty { media.append(("encoding", map(encoding, mark))) }
        let body: [(String, Node)] = [("required", plain(required.isEmpty ? "false" : "true", mark)),
                                       ("content", map([(type, map(media, mark))], mark))]
        return map(body, mark)
    }

    /// A response: `schema` and `examples` (by media type) → `content`, `headers` → Header objects.
    func response(_ raw: SpecNode, produces: [String]) -> Node {
        if let ref = raw.ref, !ref.hasPrefix("#") { return Self.rewritingRefs(raw.node) }
        let r = resolved(raw)
        var out: [(String, Node)] = []
        for (key, _, value) in r.entries {
            switch key {
            case "schema", "examples": continue
            case "headers":
                out.append(("headers", map(value.entries.map { name, _, h in
                    var header: [(String, Node)] = []
                    if let d = h["description"] { header.append(("description", d.node)) }
                    header.append(("schema", itemsSchema(h)))
                    return (name, map(header, h.mark))
                }, value.mark)))
            default: out.append((key, value.node))
            }
        }
        if r["description"] == nil { out.append(("description", text("", r.mark))) }
        let examples = r["examples"]?.entries ?? []
        if let s = r["schema"] {
            let converted = schema(s)
            var types = s["type"]?.text == "file" ? ["application/octet-stream"] : produces
            for (type, _, _) in examples where !types.contains(type) { types.append(type) }
            out.append(("content", map(types.map { type in
                var media: [(String, Node)] = [("schema", converted)]
                if let e = examples.first(where: { $0.key == type }) { media.append(("example", e.value.node)) }
                return (type, map(media, s.mark))
            }, s.mark)))
        } else if !examples.isEmpty {
            out.append(("content", map(examples.map { ($0.key, map([("example", $0.value.node)], $0.value.mark)) }, r.mark)))
        }
        return map(out, r.mark)
    }

    /// A Schema object in OpenAPI 3.0's words.
    func schema(_ s: SpecNode) -> Node {
        guard s.isMapping else { return s.node }
        var out: [(String, Node)] = []
        for (key, _, value) in s.entries {
            switch key {
            case "$ref": out.append((key, text(Self.ref(value.text ?? ""), value.mark)))
            case "x-nullable": if value.bool == true { out.append(("nullable", plain("true", value.mark))) }
            case "type" where value.text == "file":
                out += [("type", text("string", value.mark)), ("format", text("binary", value.mark))]
            case "format" where s["type"]?.text == "file": continue
            case "discriminator" where value.text != nil:
                out.append((key, map([("propertyName", value.node)], value.mark)))
            case "properties", "patternProperties", "definitions":
                out.append((key, map(value.entries.map { ($0.key, schema($0.value)) }, value.mark)))
            case "items" where !value.isMapping:
                out.append((key, list(value.items.map(schema), value.mark)))
            case "items", "additionalProperties", "not", "additionalItems":
                out.append((key, schema(value)))
            case "allOf", "anyOf", "oneOf":
                out.append((key, list(value.items.map(schema), value.mark)))
            default: out.append((key, value.node))
            }
        }
        return map(out, s.mark)
    }

    /// `securityDefinitions` entry → a Security Scheme object (OAuth2's flow → `flows`).
    func securityScheme(_ s: SpecNode) -> Node {
        var out: [(String, Node)] = []
        let type = s["type"]?.text ?? ""
        for (key, _, value) in s.entries where !["type", "flow", "authorizationUrl", "tokenUrl", "scopes"].contains(key) {
            out.append((key, value.node))
        }
        switch type {
        case "basic":
            out = [("type", text("http", s.mark)), ("scheme", text("basic", s.mark))] + out
        case "oauth2":
            let names = ["implicit": "implicit", "password": "password", "application": "clientCredentials", "accessCode": "authorizationCode"]
            let flow = s["flow"]?.text ?? ""
            guard let name = names[flow] else {
                warn(s.warning("OAuth2 flow '\(flow)' is not a Swagger 2.0 flow (implicit, password, application, accessCode)"))
                return map([("type", text("oauth2", s.mark)), ("flows", map([], s.mark))] + out, s.mark)
            }
            var f: [(String, Node)] = []
            for key in ["authorizationUrl", "tokenUrl"] { if let v = s[key] { f.append((key, v.node)) } }
            f.append(("scopes", s["scopes"]?.node ?? map([], s.mark)))
            out = [("type", text("oauth2", s.mark)), ("flows", map([(name, map(f, s.mark))], s.mark))] + out
        default:
            out = [("type", text(type, s.mark))] + out
        }
        return map(out, s.mark)
    }

    /// `#/definitions/X` → `#/components/schemas/X` (and parameters, responses), in any file.
    static func ref(_ ref: String) -> String {
        guard let hash = ref.firstIndex(of: "#") else { return ref }
        let pointer = ref[ref.index(after: hash)...]
        for (old, new) in [("/definitions/", "/components/schemas/"), ("/parameters/", "/components/parameters/"),
                           ("/responses/", "/components/responses/")] where pointer.hasPrefix(old) {
            return ref[...hash] + new + pointer.dropFirst(old.count)
        }
        return ref
    }

    /// Every `$ref` below `node` rewritten by `ref(_:)`, the rest kept as it is.
    static func rewritingRefs(_ node: Node) -> Node {
        var n = node
        switch node.content {
        case .mapping(let pairs):
            n.content = .mapping(pairs.map { p in
                var p = p
                if p.key.scalarText == "$ref", case .scalar(var s) = p.value.content {
                    s.value = ref(s.value)
                    p.value.content = .scalar(s)
                } else {
                    p.value = rewritingRefs(p.value)
                }
                return p
            })
        case .sequence(let items): n.content = .sequence(items.map(rewritingRefs))
        case .scalar: break
        }
        return n
    }

    /// Another file a Swagger description's `$ref`s name: a Swagger document is converted; a file
    /// of `definitions` has them moved to `components/schemas`; any other keeps its content, `$ref`s rewritten.
    static func convertFile(_ doc: SpecNode, warn: @escaping (ImportWarning) -> Void) -> Node {
        if doc["swagger"] != nil { return Swagger2(root: doc, warn: warn).convert() }
        let converter = Swagger2(root: doc, warn: warn)
        if doc.entries.contains(where: { methods.contains($0.key) && $0.value.isMapping }) { return converter.pathItem(doc) }  // a Path Item's file
        guard doc.isMapping, doc["definitions"] != nil || doc["parameters"] != nil || doc["responses"] != nil else {
            return converter.schema(doc)
        }
        var out: [(String, Node)] = []
        var components: [(String, Node)] = []
        for (key, _, value) in doc.entries {
            switch key {
            case "definitions": components.append(("schemas", converter.map(value.entries.map { ($0.key, converter.schema($0.value)) }, value.mark)))
            case "parameters": components.append(("parameters", converter.map(value.entries.map { ($0.key, converter.parameter($0.value)) }, value.mark)))
            case "responses": components.append(("responses", converter.map(value.entries.map { ($0.key, converter.response($0.value, produces: ["application/json"])) }, value.mark)))
            default: out.append((key, rewritingRefs(value.node)))
            }
        }
        out.append(("components", converter.map(components, doc.mark)))
        return converter.map(out, doc.mark)
    }
}
