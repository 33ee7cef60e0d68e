/// How to trust a server's certificate when the system's trust store is not enough.
public struct TLSOptions: Sendable, Hashable {
    /// A PEM file of certificates to trust in addition to the system's (a private CA, a self-signed server).
    public var caFile: String?
    /// false: accept any certificate (`--insecure`, `tls: { verify: false }`).
    public var verify: Bool

    public init(caFile: String? = nil, verify: Bool = true) {
        self.caFile = caFile
        self.verify = verify
    }

    /// Nothing asked for: the system's trust store (on Apple platforms URLSession serves such calls).
    public var isDefault: Bool { caFile == nil && verify }

    /// Later (command line) options win over earlier (file) ones.
    public func overridden(by other: TLSOptions) -> TLSOptions {
        TLSOptions(caFile: other.caFile ?? caFile, verify: verify && other.verify)
    }
}
