#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `--resolve host:port:address` and `--http1.1`: where and how the run connects, as curl's
/// flags mean them. Set once from the command line for the whole process (like the run's cookie
/// jar); the live transport reads it when it picks a client. `--resolve` connects to `address`
/// for requests to `host` on `port`, while TLS is still verified against `host` and `Host:` is still
/// `host` (async-http-client's `dnsOverride`).
public struct ConnectionOptions: Sendable, Hashable {
    public struct Resolve: Sendable, Hashable {
        public var host: String
        public var port: Int
        public var address: String
    }

    public var resolve: [Resolve] = []
    /// `--http1.1`: never HTTP/2, even when the server offers it over TLS.
    public var http1Only = false
    /// HTTP/1.1 connections kept per host (async-http-client's soft limit, default 8): `load` and
    /// `check` raise it to their concurrency (users, in-flight requests, jobs), so that N users send
    /// on N connections, as `wrk -cN` does, and none waits for another's connection.
    public var connectionsPerHost = 8

    public init(resolve: [Resolve] = [], http1Only: Bool = false) {
        self.resolve = resolve
        self.http1Only = http1Only
    }

    /// The run's, from the command line.
    public static let run = Locked(ConnectionOptions())

    /// `host:port:address` (an IPv6 address in brackets); nil when malformed.
    public static func parseResolve(_ text: String) -> Resolve? {
        let parts = text.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 3, !parts[0].isEmpty, let port = Int(parts[1]), (1...65535).contains(port) else { return nil }
        var address = parts[2]
        if address.hasPrefix("[") && address.hasSuffix("]") { address = String(address.dropFirst().dropLast()) }
        guard !address.isEmpty, address.allSatisfy({ $0.isHexDigit || $0 == "." || $0 == ":" }) else { return nil }
        return Resolve(host: parts[0].lowercased(), port: port, address: address)
    }

    /// The host-to-address overrides that apply to a request to `url` (its host and port).
    func dnsOverride(for url: URL) -> [String: String] {
        guard !resolve.isEmpty, let host = url.host?.lowercased() else { return [:] }
        let port = url.port ?? (url.scheme?.lowercased() == "https" ? 443 : 80)
        guard let entry = resolve.first(where: { $0.host == host && $0.port == port }) else { return [:] }
        return [host: entry.address]
    }
}
