/// Which `Domain=` a cookie may name (RFC 6265 §5.3 steps 5-6 and §5.1.3): never an IP address
/// other than the host itself, never a public suffix (`com`, `co.uk`, `github.io`) other than the
/// host itself, so a cookie set by one site cannot go to every site under a registry.
///
/// apicli carries no copy of the whole Public Suffix List: a domain must have a dot (every
/// single-label suffix, `com`, `test`, `localhost`, is refused) and must not be one of the common
/// multi-label suffixes below. A rarer registry suffix is therefore accepted; the jar lives for
/// one run and is never written, which bounds what that can cost.
package enum CookieDomain {
    /// Multi-label public suffixes in common use (ICANN second-level registries and shared
    /// hosting domains from the Public Suffix List).
    static let publicSuffixes: Set<String> = [
        "co.uk", "org.uk", "ac.uk", "gov.uk", "me.uk", "net.uk", "ltd.uk", "plc.uk", "sch.uk", "nhs.uk",
        "com.au", "net.au", "org.au", "edu.au", "gov.au", "asn.au", "id.au",
        "co.nz", "net.nz", "org.nz", "govt.nz", "ac.nz",
        "co.jp", "ne.jp", "or.jp", "ac.jp", "go.jp", "gr.jp", "ed.jp", "lg.jp",
        "co.kr", "or.kr", "ne.kr", "go.kr", "ac.kr",
        "com.cn", "net.cn", "org.cn", "gov.cn", "edu.cn", "ac.cn",
        "com.hk", "org.hk", "net.hk", "edu.hk", "gov.hk", "com.tw", "org.tw", "net.tw", "edu.tw", "gov.tw",
        "com.sg", "org.sg", "net.sg", "edu.sg", "gov.sg", "com.my", "org.my", "net.my", "gov.my",
        "co.in", "net.in", "org.in", "gen.in", "firm.in", "ind.in", "ac.in", "gov.in", "nic.in",
        "co.id", "or.id", "ac.id", "go.id", "web.id", "com.ph", "org.ph", "net.ph", "gov.ph",
        "co.th", "in.th", "ac.th", "go.th", "or.th", "com.vn", "net.vn", "org.vn", "gov.vn",
        "com.br", "net.br", "org.br", "gov.br", "edu.br", "com.ar", "net.ar", "org.ar", "gob.ar",
        "com.mx", "org.mx", "net.mx", "gob.mx", "edu.mx", "com.co", "net.co", "org.co", "gov.co",
        "com.pe", "org.pe", "gob.pe", "com.ve", "com.uy", "com.ec", "cl.cl",
        "co.za", "org.za", "net.za", "gov.za", "ac.za", "co.ke", "or.ke", "ac.ke", "com.ng", "org.ng", "gov.ng",
        "com.eg", "gov.eg", "co.il", "org.il", "ac.il", "gov.il", "com.tr", "org.tr", "net.tr", "gov.tr",
        "edu.tr", "com.sa", "gov.sa", "co.ae", "gov.ae", "com.pk", "gov.pk", "com.ua", "org.ua", "gov.ua",
        "com.ru", "org.ru", "net.ru", "com.pl", "org.pl", "net.pl", "gov.pl", "co.at", "or.at", "ac.at",
        "gv.at", "com.es", "org.es", "gob.es", "com.pt", "org.pt", "gov.pt", "com.gr", "gov.gr", "co.it",
        "gov.it", "com.fr", "gouv.fr", "com.de", "co.hu", "com.ro", "co.no", "com.cy", "com.mt",
        "github.io", "gitlab.io", "herokuapp.com", "appspot.com", "blogspot.com", "cloudfront.net",
        "azurewebsites.net", "cloudapp.net", "azure-api.net", "azurestaticapps.net", "netlify.app",
        "vercel.app", "pages.dev", "workers.dev", "web.app", "firebaseapp.com", "fly.dev", "onrender.com",
        "s3.amazonaws.com", "elasticbeanstalk.com", "ngrok.io", "ngrok-free.app", "glitch.me", "repl.co",
        "readthedocs.io", "now.sh", "surge.sh", "duckdns.org", "dyndns.org", "no-ip.org", "codeberg.page",
    ]

    /// An IP literal: IPv6 (it holds a colon, with or without brackets) or a host whose last
    /// label is numeric, as browsers read IPv4 (`10.0.0.1`, `0x7f.1`).
    package static func isIPAddress(_ host: String) -> Bool {
        if host.contains(":") { return true }
        guard let last = host.split(separator: ".", omittingEmptySubsequences: false).last, !last.isEmpty else {
            return false
        }
        return last.allSatisfy(\.isNumber) || (last.hasPrefix("0x") && last.dropFirst(2).allSatisfy(\.isHexDigit))
    }

    static func isPublicSuffix(_ domain: String) -> Bool {
        !domain.contains(".") || publicSuffixes.contains(domain)
    }

    /// What a cookie from `host` with `Domain=value` is scoped to: `(domain, hostOnly)`, or nil
    /// when the cookie must be ignored (another site, an IP suffix, a public suffix).
    static func scope(_ value: String, host: String) -> (domain: String, hostOnly: Bool)? {
        let domain = String(value.lowercased().drop { $0 == "." })
        guard !domain.isEmpty else { return (host, true) }
        // The host itself: an IP address or a public suffix (an intranet name such as `localhost`)
        // may set a cookie for itself alone.
        if domain == host { return (host, isIPAddress(host) || isPublicSuffix(host)) }
        guard !isIPAddress(host), host.hasSuffix("." + domain), !isPublicSuffix(domain) else { return nil }
        return (domain, false)
    }

    /// RFC 6265 domain-match: the exact host, or a parent domain of a host name (never of an IP).
    static func matches(_ host: String, cookieDomain: String, hostOnly: Bool) -> Bool {
        if host == cookieDomain { return true }
        return !hostOnly && !isIPAddress(host) && host.hasSuffix("." + cookieDomain)
    }
}
