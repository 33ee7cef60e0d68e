#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Joining base URLs and paths, and percent-encoding, as Moya and Alamofire do it.
package enum URLBuilder {
    /// Moya's rule: an empty path is the base URL exactly; otherwise exactly one '/' joins them.
    /// A query in the base URL stays at the end. The path is taken as written (see `encodePath`).
    package static func join(base: String, path: String) -> String {
        guard !path.isEmpty else { return base }
        // By bytes, read in place (a UTF-8 view's index walk checks the string's kind per byte):
        // '?' and '/' are ASCII, so these are character boundaries too.
        let slash = UInt8(ascii: "/")
        var base = base, path = path
        return base.withUTF8 { bb in
            path.withUTF8 { pb in
                let cut = bb.firstIndex(of: UInt8(ascii: "?")) ?? bb.count
                var head = cut
                while head > 0, bb[head - 1] == slash { head -= 1 }
                var skip = 0
                while skip < pb.count, pb[skip] == slash { skip += 1 }
                // The bytes copied once into the result (`list` joins every target's URL).
                return String(unsafeUninitializedCapacity: head + 1 + (pb.count - skip) + (bb.count - cut)) { out in
                    var i = 0
                    for k in 0..<head { out[i] = bb[k]; i += 1 }
                    out[i] = slash; i += 1
                    for k in skip..<pb.count { out[i] = pb[k]; i += 1 }
                    for k in cut..<bb.count { out[i] = bb[k]; i += 1 }
                    return i
                }
            }
        }
    }

    /// Why `base` cannot be a base URL, or nil when it can. A base that passed is remembered: a
    /// check run builds thousands of requests on one base URL.
    package static func problem(withBaseURL base: String) -> String? {
        if goodBases.withLock({ $0.contains(base) }) { return nil }
        switch UnixSocketBase.parse(base) {
        case .success?: return nil
        case .failure(let bad)?: return bad.text
        case nil: break
        }
        guard let components = URLComponents(string: base) else { return "is not a valid URL" }
        guard let scheme = components.scheme?.lowercased(), ["http", "https", "ws", "wss"].contains(scheme) else {
            return "does not start with http://, https://, ws:// or wss://"
        }
        guard let host = components.host, !host.isEmpty else { return "has no host" }
        if let port = components.port, let problem = problem(withPort: port) { return problem }
        goodBases.withLock { if $0.count < 64 { $0.append(base) } }
        return nil
    }

    /// The ports a URL may name (TCP's: 0 is no port to connect to).
    package static let ports = 1...65535

    /// Why `port` cannot be a URL's port, or nil when it can.
    package static func problem(withPort port: Int) -> String? {
        ports.contains(port) ? nil : "has port \(port): a port is 1 to 65535"
    }

    /// Why the port `url` names cannot be one (a command line's URL: exit 64), or nil.
    package static func problem(withPortOf url: String) -> String? {
        URLComponents(string: url)?.port.flatMap(problem(withPort:))
    }

    /// How to write `base` right, for a `problem(withBaseURL:)` message.
    package static func baseURLHint(_ base: String) -> String {
        base.lowercased().hasPrefix(UnixSocketBase.scheme) ? "name the socket and the base path, like unix:///var/run/docker.sock:/v1.45"
                                                           : "write it whole, like https://api.example.com/v1"
    }

    /// Bases found good (a request's, each time it is built: `check`, `load`). An array, not a
    /// `Set`: a run names a few, and a `Set`'s type is made at run time on the first call.
    private static let goodBases = Locked<[String]>([])

    /// RFC 6570's simple expansion (`{name}` in a path): the value is one segment. Everything but
    /// the unreserved characters is percent-encoded — '/', '?', '#' and '%' included — and a value
    /// that is exactly `.` or `..` has its dots encoded, so a value can never walk the path.
    package static func encodeSegment(_ value: String) -> String {
        if value == "." || value == ".." { return String(repeating: "%2E", count: value.count) }
        return value.percentEncoded(keeping: .unreserved)
    }

    /// RFC 6570's reserved expansion (`{+name}`): '/' and the other reserved characters, and
    /// existing %-escapes, stay; the rest is encoded as in a literal path.
    package static func encodeReserved(_ value: String) -> String {
        encodePath(value)
    }

    static let pathAllowed = Text.ByteSet.unreserved.union("!$&'()*+,;=:@/")

    /// A literal path from a target file: '/' and existing %-escapes stay, spaces and the like are
    /// encoded, and so is a '%' that starts no escape (`100%` → `100%25`): left as it was, it made
    /// the whole URL invalid, and Foundation then encoded every '%' again (`%24` → `%2524`).
    package static func encodePath(_ path: String) -> String {
        encodeKeepingEscapes(path, pathAllowed)
    }

    /// Every byte outside `allowed` as `%XX`; a `%` followed by two hex digits stays an escape.
    static func encodeKeepingEscapes(_ s: String, _ allowed: Text.ByteSet) -> String {
        if s.utf8.allSatisfy(allowed.contains) { return s }  // the usual path: nothing to escape
        let b = Array(s.utf8)
        var out = ""
        for (i, byte) in b.enumerated() {
            if byte == UInt8(ascii: "%") {
                out += i + 2 < b.count && Text.hex(b[i + 1]) != nil && Text.hex(b[i + 2]) != nil ? "%" : "%25"
            } else if allowed.contains(byte) {
                out.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                out += "%" + Text.hexByte(byte)
            }
        }
        return out
    }

    /// Alamofire's query escaping: RFC 3986 query characters minus the general and sub-delimiters,
    /// so keys like `k[]` arrive as `k%5B%5D` and values may hold '&' and '='.
    static let queryAllowed = Text.ByteSet.unreserved.union("/?")

    package static func escapeQuery(_ s: String) -> String {
        s.percentEncoded(keeping: queryAllowed)
    }

    /// A query written as text (`task: { query: "b=2&a=1&flag" }`): sent as it is, except what a URL
    /// cannot hold (RFC 3986: a space, `[ ] { } | ^ " < >`, a `%` not followed by two hex digits,
    /// non-ASCII), which is percent-encoded.
    package static func encodeQueryString(_ s: String) -> String {
        encodeKeepingEscapes(s, queryStringAllowed)
    }

    static let queryStringAllowed = Text.ByteSet.unreserved.union("!$&'()*+,;=:@/?")
}
