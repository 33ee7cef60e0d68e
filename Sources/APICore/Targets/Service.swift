/// One target file: a service's defaults and its targets, in declaration order.
public struct Service: Sendable {
    public var name: String
    /// The file as the user named it, for diagnostics; relative sample and body files resolve against it.
    public var file: String
    public var baseURL: Template
    public var headers: [Header]
    /// Seconds; nil means the default (60).
    public var timeout: Double?
    /// nil means `none`, Moya's default.
    public var validation: Validation?
    public var targets: [Target]
    /// `tls: { cacert: path, verify: false }`; nil: the system's trust store.
    public var tls: TLSOptions? = nil
    /// `auth:` for every target; a rule or the target may replace it.
    public var auth: Auth? = nil
    /// `rules:`, in order.
    public var rules: [Rule] = []
    public var environments: [Environment] = []
    /// `followRedirects:`; nil: true.
    public var followRedirects: Bool? = nil
    /// `http2: prior-knowledge`: `http://` requests speak HTTP/2 from the first byte (h2c).
    public var http2PriorKnowledge = false
    /// Every file the service file names (bodies, uploads, parts, sample bodies, a CA file).
    public var files: [FileReference] = []

    public static let defaultTimeout = 60.0

    public func target(named name: String) -> Target? {
        targets.first { $0.name == name }
    }
}

/// A header as declared: its value may hold placeholders and variables.
public struct Header: Sendable, Equatable {
    public var name: String
    public var value: Template

    public init(name: String, value: Template) {
        self.name = name
        self.value = value
    }
}
