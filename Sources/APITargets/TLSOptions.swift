import APIYAML
/// How to trust a server's certificate when the system's trust store is not enough, and the
/// client certificate to present (mTLS).
package struct TLSOptions: Sendable, Hashable {
    /// A PEM file of certificates to trust in addition to the system's (a private CA, a self-signed server).
    package var caFile: String?
    /// false: accept any certificate (`--insecure`, `tls: { verify: false }`).
    package var verify: Bool
    /// A PEM file with the client certificate (and its chain) to present (`--cert`, `tls: { cert: }`).
    package var certFile: String?
    /// The PEM file of the certificate's private key (`--key`, `tls: { key: }`); nil: in `certFile`.
    package var keyFile: String?
    /// A PKCS#12 bundle (`.p12`, `.pfx`) with the client certificate, its chain and key (`tls: { pkcs12: }`).
    package var pkcs12File: String?
    /// The bundle's password (`tls: { password: "${P12_PASSWORD}" }`), or the PEM key's
    /// (`tls: { keyPassword: "${KEY_PASS}" }`, `--key-password`), expanded; never printed.
    package var password: String?
    /// `password:` as written, expanded by the resolver.
    package var passwordTemplate: String?
    package var passwordMark: Mark?

    package init(caFile: String? = nil, verify: Bool = true, certFile: String? = nil, keyFile: String? = nil) {
        self.caFile = caFile
        self.verify = verify
        self.certFile = certFile
        self.keyFile = keyFile
    }

    /// Nothing asked for: the system's trust store (on Apple platforms URLSession serves such calls).
    package var isDefault: Bool { caFile == nil && verify && certFile == nil && pkcs12File == nil }

    /// Later (command line) options win over earlier (file) ones; a certificate and its key go together.
    package func overridden(by other: TLSOptions) -> TLSOptions {
        // No command-line option (every request of most runs): these options as they are.
        if other.caFile == nil, other.verify, other.certFile == nil, other.password == nil { return self }
        let ownCert = other.certFile == nil
        var out = TLSOptions(caFile: other.caFile ?? caFile, verify: verify && other.verify,
                             certFile: other.certFile ?? certFile, keyFile: ownCert ? keyFile : other.keyFile)
        if ownCert { (out.pkcs12File, out.password, out.passwordTemplate, out.passwordMark) = (pkcs12File, password, passwordTemplate, passwordMark) }
        if let given = other.password { (out.password, out.passwordTemplate, out.passwordMark) = (given, nil, nil) }
        return out
    }
}
