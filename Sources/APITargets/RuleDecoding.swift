import APIYAML
/// `rules:` in a service file or apicli.yaml.
extension ServiceDecoder {
    mutating func rules(_ node: Node) -> [Rule] {
        guard let items = node.items else {
            reader.error("rules must be a list, not \(node.kindName)", at: node.mark,
                         hint: "write rules: [ { match: \"*\", headers: { … } } ]")
            return []
        }
        return items.compactMap { rule($0) }
    }

    private mutating func rule(_ node: Node) -> Rule? {
        guard let entries = reader.mapping(node, "a rule", known: TargetFile.Keys.rule) else { return nil }
        var rule = Rule(match: "", except: [], headers: [], file: file, mark: node.mark)
        var matched = false
        for e in entries {
            switch MappingKey(e.key) {
            case "match":
                if let t = reader.text(e.value, "match") { (rule.match, matched) = (t.text, true) }
            case "except": rule.except = names(e.value, "except")
            case "headers": rule.headers = headers(e.value, "the headers of a rule") ?? []
            case "timeout": rule.timeout = reader.duration(e.value, "timeout", allowZero: false)
            case "cookies": rule.cookies = reader.boolean(e.value, "cookies")
            case "followRedirects": rule.followRedirects = reader.boolean(e.value, "followRedirects")
            case "validate": rule.validation = validation(e.value)
            case "auth": rule.auth = auth(e.value, "a rule")
            case "task": rule.task = taskPatch(e.value)
            default: break
            }
        }
        if !matched {
            reader.error("a rule needs match:", at: node.mark, hint: "match: \"*\" applies it to every target")
            return nil
        }
        return rule
    }

    /// One name or a list of names.
    private mutating func names(_ node: Node, _ what: String) -> [String] {
        if let items = node.items { return items.compactMap { reader.text($0, what)?.text } }
        return reader.text(node, what).map { [$0.text] } ?? []
    }

    private mutating func taskPatch(_ node: Node) -> TaskPatch? {
        guard let entries = reader.mapping(node, "the task of a rule", known: TargetFile.Keys.ruleTask) else { return nil }
        var patch = TaskPatch()
        for e in entries {
            switch MappingKey(e.key) {
            case "encoding": patch.encoding = reader.choice(e.value, "encoding", as: ParameterEncoding.self)
            case "arrays": patch.arrays = reader.choice(e.value, "arrays", as: ArrayEncoding.self)
            case "bools": patch.bools = reader.choice(e.value, "bools", as: BoolEncoding.self)
            case "contentType": patch.contentType = reader.text(e.value, "contentType")
            default: break
            }
        }
        return patch
    }
}
