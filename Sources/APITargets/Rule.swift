import APIYAML
/// One entry of `rules:`: Moya's endpointClosure and requestClosure as data. A rule applies to the
/// targets its `match:` glob names, minus `except:`; it sits between the service's defaults and the
/// target's own fields, and later rules win over earlier ones.
package struct Rule: Sendable {
    /// A `Glob` over target names (`service.target` in apicli.yaml).
    package var match: String
    package var except: [String]
    /// `adding(newHTTPHeaderFields:)`.
    package var headers: [Header]
    /// `timeoutInterval`.
    package var timeout: Double?
    /// `httpShouldHandleCookies`.
    package var cookies: Bool?
    /// `followRedirects:` — false returns a 3xx as it is.
    package var followRedirects: Bool?
    package var validation: Validation?
    package var auth: Auth?
    /// `replacing(task:)`: how parameters encode; fields the target declares itself win.
    package var task: TaskPatch?
    /// Where the rule stands, for `apicli show`.
    package var file: String
    package var mark: Mark

    /// Whether the rule applies to `name` (a target name, or `service.target`).
    package func applies(to name: String) -> Bool {
        Glob.matches(match, name) && !except.contains { Glob.matches($0, name) }
    }

    /// `rule "upload*" (targets/api.yaml:12)`.
    package var label: String { "rule \"\(match)\" (\(file):\(mark.line))" }
}

/// The `task:` of a rule: encodings only, never a body.
package struct TaskPatch: Sendable {
    package var encoding: ParameterEncoding?
    package var arrays: ArrayEncoding?
    package var bools: BoolEncoding?
    package var contentType: Template?

    package init(encoding: ParameterEncoding? = nil, arrays: ArrayEncoding? = nil, bools: BoolEncoding? = nil,
                contentType: Template? = nil) {
        self.encoding = encoding
        self.arrays = arrays
        self.bools = bools
        self.contentType = contentType
    }

    /// Sets the fields the target did not declare; returns what it set (`encoding form`).
    package func apply(to task: inout RequestTask) -> [String] {
        var set: [String] = []
        let declared = task.declared
        let free = { (key: String) in !declared.contains(key) }
        if let v = encoding, free("encoding") { task.encoding = v; set.append("encoding \(v.rawValue)") }
        if let v = arrays, free("arrays") { task.arrays = v; set.append("arrays \(v.rawValue)") }
        if let v = bools, free("bools") { task.bools = v; set.append("bools \(v.rawValue)") }
        if let v = contentType, free("contentType") { task.contentType = v; set.append("contentType \(v.text)") }
        return set
    }
}
