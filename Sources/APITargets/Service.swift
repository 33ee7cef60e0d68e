import APISupport
/// One target file: a service's defaults and its targets, in declaration order.
package struct Service: Sendable {
    package var name: String
    /// The file as the user named it, for diagnostics; relative sample and body files resolve against it.
    package var file: String
    package var baseURL: Template
    package var headers: [Header]
    /// Seconds; nil means the default (60).
    package var timeout: Double?
    /// nil means `none`, Moya's default.
    package var validation: Validation?
    package var targets: [Target]
    /// `tls: { cacert: path, verify: false }`; nil: the system's trust store.
    package var tls: TLSOptions? {
        get { tlsBox?.value }
        set { tlsBox = newValue.map(CopyOnWrite.init) }
    }
    /// `auth:` for every target; a rule or the target may replace it.
    package var auth: Auth? {
        get { authBox?.value }
        set { authBox = newValue.map(CopyOnWrite.init) }
    }
    /// `rules:`, in order.
    package var rules: [Rule] = []
    package var environments: [Environment] = []
    /// `followRedirects:`; nil: true.
    package var followRedirects: Bool? = nil
    /// `http2: prior-knowledge`: `http://` requests speak HTTP/2 from the first byte (h2c).
    package var http2PriorKnowledge = false
    /// Every file the service file names (bodies, uploads, parts, sample bodies, a CA file).
    package var files: [FileReference] = []

    /// `tls:` and `auth:` are written in few service files and are large inline (120 and 184
    /// bytes; a service is 144 bytes with them boxed, 432 without): kept behind a reference when
    /// set, a pointer's size when not. A service is copied into every entry of a run's selection
    /// and every request's call (`check` of 10,000 targets holds 20,000 copies). As `Target.auth`:
    /// internal, so the memberwise initializer stays internal.
    var tlsBox: CopyOnWrite<TLSOptions>? = nil
    var authBox: CopyOnWrite<Auth>? = nil

    package static let defaultTimeout = 60.0

    package func target(named name: String) -> Target? {
        targets.first { $0.name == name }
    }
}

/// A header as declared: its value may hold placeholders and variables.
package struct Header: Sendable, Equatable {
    package var name: String
    package var value: Template

    package init(name: String, value: Template) {
        self.name = name
        self.value = value
    }
}
