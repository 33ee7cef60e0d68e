import APIYAML
extension ServiceDecoder {
    /// `load: { weight: 3, thresholds: { p95: 200ms, errors: "1%" } }` on a target (`target`:
    /// its qualified name), or `load: { thresholds: … }` in the project file (nil: the whole run).
    mutating func load(_ node: Node, target: String?) -> LoadSettings? {
        let known = target == nil ? ["thresholds"] : LoadSettings.keys
        guard let entries = reader.mapping(node, "load", known: known) else { return nil }
        var settings = LoadSettings()
        for e in entries {
            switch MappingKey(e.key) {
            case "weight":
                let r = LoadSettings.weights
                settings.weight = reader.integer(e.value, "load weight", in: r)
            default:
                guard let rules = reader.mapping(e.value, "load thresholds") else { continue }
                for rule in rules {
                    guard let t = reader.text(rule.value, "threshold '\(rule.key)'") else { continue }
                    let source = "\(reader.file):\(rule.keyMark.line):\(rule.keyMark.column)"
                    switch LoadThreshold.file(metric: rule.key, value: t.text, target: target, source: source) {
                    case .success(let threshold): settings.thresholds.append(threshold)
                    case .failure(let problem):
                        reader.error(problem.message, at: rule.value.mark,
                                     hint: "thresholds: { p95: 200ms, p99: 1s, errors: \"1%\", rps: 100 }")
                    }
                }
            }
        }
        return settings
    }
}
