import APISupport
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `--resolve`, `--connect-to`, `--unix-socket` and `--http1.1`: where and how the run connects,
/// as curl's flags mean them. Set from the command line into the workspace's `RunSettings`; the
/// live transport made from them reads it when it picks a client. The request itself does not
/// change: `Host:` stays the URL's, and TLS (SNI and the certificate's name) is still checked
/// against the URL's host (async-http-client's `dnsOverride`).
package struct ConnectionOptions: Sendable, Hashable {
    /// `--resolve host:port:address`.
    package struct Resolve: Sendable, Hashable {
        package var host: String
        package var port: Int
        package var address: String
    }

    /// `--connect-to host:port:host2:port2`: requests to host:port go to host2:port2. An empty
    /// host or port on the left matches any; an empty one on the right means "the same".
    package struct ConnectTo: Sendable, Hashable {
        package var host: String?
        package var port: Int?
        package var toHost: String?
        package var toPort: Int?

        /// curl's spelling, IPv6 addresses in brackets.
        package var text: String {
            func h(_ s: String?) -> String { s.map { $0.contains(":") ? "[\($0)]" : $0 } ?? "" }
            return "\(h(host)):\(port.map(String.init) ?? ""):\(h(toHost)):\(toPort.map(String.init) ?? "")"
        }
    }

    /// Why a flag's value was refused.
    package struct Invalid: Error, Sendable { package var message: String }

    package var resolve: [Resolve] = []
    package var connectTo: [ConnectTo] = []
    /// `--unix-socket PATH`: every request goes over this socket (its URL names the host for `Host:`).
    package var unixSocket: String? = nil
    /// `--http1.1`: never HTTP/2, even when the server offers it over TLS.
    package var http1Only = false
    /// HTTP/1.1 connections kept per host (async-http-client's soft limit, default 8): `load` and
    /// `check` raise it to their concurrency (users, in-flight requests, jobs), so that N users send
    /// on N connections, as `wrk -cN` does, and none waits for another's connection.
    package var connectionsPerHost = 8

    package init(resolve: [Resolve] = [], connectTo: [ConnectTo] = [], unixSocket: String? = nil, http1Only: Bool = false) {
        self.resolve = resolve
        self.connectTo = connectTo
        self.unixSocket = unixSocket
        self.http1Only = http1Only
    }

    /// `host:port:address` (an IPv6 address in brackets); nil when malformed.
    package static func parseResolve(_ text: String) -> Resolve? {
        let parts = text.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 3, !parts[0].isEmpty, let port = Int(parts[1]), (1...65535).contains(port) else { return nil }
        var address = parts[2]
        if address.hasPrefix("[") && address.hasSuffix("]") { address = String(address.dropFirst().dropLast()) }
        guard !address.isEmpty, address.allSatisfy({ $0.isHexDigit || $0 == "." || $0 == ":" }) else { return nil }
        return Resolve(host: parts[0].lowercased(), port: port, address: address)
    }

    /// `host:port:host2:port2` (IPv6 addresses in brackets; each part may be empty).
    package static func parseConnectTo(_ text: String) throws(Invalid) -> ConnectTo {
        let form = "--connect-to takes host:port:host2:port2 (any part may be empty; IPv6 in brackets), got '\(text)'"
        var parts: [String] = []
        var current = ""
        var bracket = false
        for c in text {
            switch c {
            case "[" where current.isEmpty && !bracket: bracket = true; current.append(c)
            case "]" where bracket: bracket = false; current.append(c)
            case ":" where !bracket: parts.append(current); current = ""
            default: current.append(c)
            }
        }
        parts.append(current)
        guard parts.count == 4, !bracket else { throw Invalid(message: form) }
        func host(_ s: String) throws(Invalid) -> String? {
            var h = s
            if h.hasPrefix("[") {
                guard h.hasSuffix("]"), h.count > 2 else { throw Invalid(message: form) }
                h = String(h.dropFirst().dropLast())
                guard h.allSatisfy({ $0.isHexDigit || $0 == ":" || $0 == "." }) else { throw Invalid(message: form) }
            } else if !h.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "." || $0 == "-" || $0 == "_" }) {
                throw Invalid(message: "--connect-to: '\(s)' is not a host name or address (in '\(text)')")
            }
            return h.isEmpty ? nil : h.lowercased()
        }
        func port(_ s: String) throws(Invalid) -> Int? {
            if s.isEmpty { return nil }
            guard s.count <= 5, s.allSatisfy(\.isASCII), let p = Int(s), (1...65535).contains(p) else {
                throw Invalid(message: "--connect-to: port '\(s)' is not a number from 1 to 65535 (in '\(text)')")
            }
            return p
        }
        return ConnectTo(host: try host(parts[0]), port: try port(parts[1]), toHost: try host(parts[2]), toPort: try port(parts[3]))
    }

    /// Where a request to `url` connects: the host-to-address override async-http-client takes,
    /// another port, or a unix socket.
    package struct Route: Sendable, Hashable {
        package var dns: [String: String] = [:]
        /// The port to connect to when it is not the URL's.
        package var port: Int? = nil
        package var socket: String? = nil
        /// The `--connect-to` entry that applied (for `--curl`).
        package var connectTo: ConnectTo? = nil
        /// The `--resolve` entry that applied (for `--curl`).
        package var resolve: Resolve? = nil

        /// A direct connection to the URL's host and port.
        package init() {}
    }

    package func route(for url: URL, socket: String? = nil) -> Route {
        var route = Route()
        if let socket = socket ?? unixSocket {
            route.socket = socket
            return route
        }
        guard !resolve.isEmpty || !connectTo.isEmpty, let host = url.host?.lowercased() else { return route }
        let port = url.port ?? (url.scheme?.lowercased() == "https" ? 443 : 80)
        var (toHost, toPort) = (host, port)
        if let entry = connectTo.first(where: { ($0.host == nil || $0.host == host) && ($0.port == nil || $0.port == port) }) {
            route.connectTo = entry
            (toHost, toPort) = (entry.toHost ?? host, entry.toPort ?? port)
        }
        if let entry = resolve.first(where: { $0.host == toHost && $0.port == toPort }) {
            route.resolve = entry
            toHost = entry.address
        }
        if toHost != host { route.dns = [url.host ?? host: toHost] }
        if toPort != port { route.port = toPort }
        return route
    }
}
