/// A target with every template expanded and every default applied: what will be sent, before
/// encoding. Moya's `Endpoint`. `RequestBuilder` turns it into bytes on the wire.
public struct Endpoint: Sendable {
    /// `service.target`.
    public var name: String
    /// Base URL joined with the path; any query comes from the task.
    public var url: String
    public var method: String
    /// In precedence order, already merged: one entry per name (case-insensitive), last writer wins.
    public var headers: [HeaderField]
    public var task: RequestTask
    /// Seconds.
    public var timeout: Double
    public var validation: Validation
    /// Certificate trust for live calls; the default means the system's trust store.
    public var tls: TLSOptions = TLSOptions()
    /// Where relative paths and diagnostics point.
    public var file: String
    /// From `auth:` (service, rule or target); nil when none applies or the target says `auth: none`.
    public var credential: Credential? = nil
    /// Values that came from secret `${VAR}`s, for `Redactor`.
    public var secrets: [String] = []
    /// `httpShouldHandleCookies`; a rule's `cookies: false` turns it off.
    public var cookies: Bool = true
    /// Which rule or environment set what, for `apicli show`.
    public var notes: [String] = []
    /// `task: { download: }`, expanded: where a call saves the body (relative to the working directory).
    public var download: String? = nil

    /// The plugins every exchange of this endpoint needs: its auth, if any.
    public var plugins: [any Plugin] {
        credential.map { [AuthPlugin($0)] } ?? []
    }
}

/// A header name and a final value.
public struct HeaderField: Sendable, Equatable {
    public var name: String
    public var value: String

    public init(_ name: String, _ value: String) {
        self.name = name
        self.value = value
    }
}

extension Array where Element == HeaderField {
    /// Sets `name` (case-insensitively) to `value`: replaces the existing field in place, or appends.
    public mutating func set(_ name: String, _ value: String) {
        if let i = firstIndex(where: { $0.name.caseInsensitiveCompare(name) == .orderedSame }) {
            self[i] = HeaderField(name, value)
        } else {
            append(HeaderField(name, value))
        }
    }

    public func value(of name: String) -> String? {
        first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
    }
}
