import APISupport
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The hosts a run may connect to (`apicli load`'s guard), judged where a connection actually goes:
/// after `--connect-to` and `--resolve` (a unix socket is local). Loopback is always in scope:
/// `localhost`, the 127.0.0.0/8 addresses written as four numbers and `::1`; nothing else, whatever
/// its name begins with. `hosts`: the other hosts allowed (lowercased).
package struct HostScope: Sendable, Hashable {
    package var hosts: Set<String>
    package var connection: ConnectionOptions

    package init(hosts: Set<String> = [], connection: ConnectionOptions = ConnectionOptions()) {
        self.hosts = Set(hosts.map { $0.lowercased() })
        self.connection = connection
    }

    /// Where a connection for `url` goes (lowercased, without brackets); nil for a unix socket.
    package func destination(_ url: URL, socket: String? = nil) -> String? {
        let route = connection.route(for: url, socket: socket)
        if route.socket != nil { return nil }
        guard let host = url.host else { return "" }
        return Self.bare(route.dns[host] ?? host)
    }

    /// Whether a connection for `url` stays in scope.
    package func allows(_ url: URL, socket: String? = nil) -> Bool {
        guard let to = destination(url, socket: socket) else { return true }
        return Self.isLoopback(to) || hosts.contains(to)
    }

    /// `localhost`, 127.0.0.0/8 (four decimal numbers) and `::1`, bracketed or not.
    package static func isLoopback(_ host: String) -> Bool {
        let h = bare(host)
        if h == "localhost" || h == "::1" || h == "0:0:0:0:0:0:0:1" { return true }
        let parts = h.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts[0] == "127" && parts.allSatisfy { p in
            (1...3).contains(p.count) && p.allSatisfy { $0 >= "0" && $0 <= "9" } && Int(p)! <= 255
        }
    }

    /// `host` lowercased, without an IPv6 address's brackets.
    package static func bare(_ host: String) -> String {
        var h = host.lowercased()
        if h.hasPrefix("["), h.hasSuffix("]") { h = String(h.dropFirst().dropLast()) }
        return h
    }
}
