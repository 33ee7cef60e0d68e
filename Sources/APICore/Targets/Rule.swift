/// One entry of `rules:`: Moya's endpointClosure and requestClosure as data. A rule applies to the
/// targets its `match:` glob names, minus `except:`; it sits between the service's defaults and the
/// target's own fields, and later rules win over earlier ones.
public struct Rule: Sendable {
    /// A `Glob` over target names (`service.target` in apicli.yaml).
    public var match: String
    public var except: [String]
    /// `adding(newHTTPHeaderFields:)`.
    public var headers: [Header]
    /// `timeoutInterval`.
    public var timeout: Double?
    /// `httpShouldHandleCookies`.
    public var cookies: Bool?
    /// `followRedirects:` — false returns a 3xx as it is.
    public var followRedirects: Bool?
    public var validation: Validation?
    public var auth: Auth?
    /// `replacing(task:)`: how parameters encode; fields the target declares itself win.
    public var task: TaskPatch?
    /// Where the rule stands, for `apicli show`.
    public var file: String
    public var mark: Mark

    /// Whether the rule applies to `name` (a target name, or `service.target`).
    public func applies(to name: String) -> Bool {
        Glob.matches(match, name) && !except.contains { Glob.matches($0, name) }
    }

    /// `rule "upload*" (targets/api.yaml:12)`.
    public var label: String { "rule \"\(match)\" (\(file):\(mark.line))" }
}

/// The `task:` of a rule: encodings only, never a body.
public struct TaskPatch: Sendable {
    public var encoding: ParameterEncoding?
    public var arrays: ArrayEncoding?
    public var bools: BoolEncoding?
    public var contentType: Template?

    public init(encoding: ParameterEncoding? = nil, arrays: ArrayEncoding? = nil, bools: BoolEncoding? = nil,
                contentType: Template? = nil) {
        self.encoding = encoding
        self.arrays = arrays
        self.bools = bools
        self.contentType = contentType
    }

    /// Sets the fields the target did not declare; returns what it set (`encoding form`).
    func apply(to task: inout RequestTask) -> [String] {
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
