/// How to trust a server's certificate when the system's trust store is not enough, and the
/// client certificate to present (mTLS).
public struct TLSOptions: Sendable, Hashable {
    /// A PEM file of certificates to trust in addition to the system's (a private CA, a self-signed server).
    public var caFile: String?
    /// false: accept any certificate (`--insecure`, `tls: { verify: false }`).
    public var verify: Bool
    /// A PEM file with the client certificate (and its chain) to present (`--cert`, `tls: { cert: }`).
    public var certFile: String?
    /// The PEM file of the certificate's private key (`--key`, `tls: { key: }`); nil: in `certFile`.
    public var keyFile: String?

    public init(caFile: String? = nil, verify: Bool = true, certFile: String? = nil, keyFile: String? = nil) {
        self.caFile = caFile
        self.verify = verify
        self.certFile = certFile
        self.keyFile = keyFile
    }

    /// Nothing asked for: the system's trust store (on Apple platforms URLSession serves such calls).
    public var isDefault: Bool { caFile == nil && verify && certFile == nil }

    /// Later (command line) options win over earlier (file) ones; a certificate and its key go together.
    public func overridden(by other: TLSOptions) -> TLSOptions {
        let ownCert = other.certFile == nil
        return TLSOptions(caFile: other.caFile ?? caFile, verify: verify && other.verify,
                          certFile: other.certFile ?? certFile, keyFile: ownCert ? keyFile : other.keyFile)
    }
}
