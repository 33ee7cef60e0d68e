import APIYAML
/// `until:` on a target: its request is repeated until the response meets `expect` (start a job,
/// then poll it), at once a failure when `failIf` holds, a timeout when `within` runs out.
package struct Until: Sendable {
    package var expect: Expectations
    /// Holds on a terminal failure (`$.state: failed`): stop polling, the target fails.
    package var failIf: Expectations?
    /// Seconds between attempts (a `Retry-After` of the response wins); default 1.
    package var every: Double
    /// Seconds in all; required.
    package var within: Double
    package var mark: Mark
}

extension ServiceDecoder {
    mutating func until(_ node: Node, _ what: String) -> Until? {
        guard let entries = reader.mapping(node, "until of \(what)", known: TargetFile.Keys.until) else { return nil }
        var expect: Expectations?, failIf: Expectations?, every = 1.0, within: Double?
        var ok = true
        for e in entries {
            switch MappingKey(e.key) {
            case "expect": expect = expectations(e.value, "until: of \(what)")
            case "failIf": failIf = expectations(e.value, "failIf of \(what)")
            case "every":
                if let seconds = reader.duration(e.value, "until every", allowZero: false) { every = seconds } else { ok = false }
            default: within = reader.duration(e.value, "until within", allowZero: false)
            }
        }
        let missing = ["expect", "within"].filter { key in !entries.contains { $0.key == key } }
        if !missing.isEmpty {
            reader.error("until: needs " + missing.map { "\($0):" }.joined(separator: " and ")
                         + " (expect: is the condition that ends the polling, within: how long it may take in all)", at: node.mark,
                         hint: "write until: { expect: { json: { \"$.state\": done } }, every: 1s, within: 60s }")
            ok = false
        }
        guard ok, let expect, let within else { return nil }
        return Until(expect: expect, failIf: failIf, every: every, within: within, mark: node.mark)
    }
}
