import APISupport
import APITargets
import APITransport
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Crypto

/// AWS Signature Version 4 (header form) of one request: the canonical request, the string to
/// sign and the `Authorization` value, as AWS documents them and botocore's `SigV4Auth`
/// computes them. Pure: the time and the payload hash are given (`SigV4Transport` supplies them).
package struct SigV4Signer: Sendable {
    package var credentials: AWSCredentials

    package init(_ credentials: AWSCredentials) {
        self.credentials = credentials
    }

    /// Headers never signed (botocore's list): proxies and clients change them.
    static let unsigned: Set<String> = ["expect", "user-agent", "x-amzn-trace-id", "authorization"]

    /// What signing adds: `X-Amz-Date`, `X-Amz-Security-Token` (with a session token), then
    /// `Authorization`. `payloadHash`: lowercase hex SHA-256 of the body (or `UNSIGNED-PAYLOAD`).
    package func sign(method: String, url: URL, headers: [HeaderField], payloadHash: String, date: Date) -> [HeaderField] {
        var out = headers.filter { !["authorization", "x-amz-date", "x-amz-security-token"].contains($0.name.lowercased()) }
        let stamp = Self.timestamp(date)
        out.append(HeaderField("X-Amz-Date", stamp))
        if let token = credentials.sessionToken { out.append(HeaderField("X-Amz-Security-Token", token)) }
        var signing = out
        if !signing.contains(where: { $0.name.lowercased() == "host" }) { signing.append(HeaderField("host", Self.host(url))) }
        out.append(HeaderField("Authorization", authorization(method: method, path: url.path(percentEncoded: true),
                                                              query: url.query(percentEncoded: true), headers: signing,
                                                              payloadHash: payloadHash, stamp: stamp)))
        return out
    }

    /// The `Authorization` value for a request whose headers (`Host` and `X-Amz-Date` among them) are final.
    func authorization(method: String, path: String, query: String?, headers: [HeaderField], payloadHash: String,
                       stamp: String) -> String {
        let (canonical, signed) = canonicalRequest(method: method, path: path, query: query, headers: headers, payloadHash: payloadHash)
        let day = String(stamp.prefix(8))
        let scope = "\(day)/\(credentials.region)/\(credentials.service)/aws4_request"
        let signature = Self.hex(Self.hmac(signingKey(day: day), Data(stringToSign(canonical, stamp: stamp, scope: scope).utf8)))
        return "AWS4-HMAC-SHA256 Credential=\(credentials.accessKey)/\(scope), SignedHeaders=\(signed), Signature=\(signature)"
    }

    /// The canonical request and its `SignedHeaders` list. `path` and `query` as on the request
    /// line (percent-encoded as sent); `headers` with `Host`.
    package func canonicalRequest(method: String, path: String, query: String?, headers: [HeaderField],
                                 payloadHash: String) -> (String, String) {
        var byName: [String: [String]] = [:]
        for h in headers where !Self.unsigned.contains(h.name.lowercased()) {
            byName[h.name.lowercased(), default: []].append(Self.trimmed(h.value))
        }
        let names = byName.keys.sorted()
        let canonicalHeaders = names.map { "\($0):\(byName[$0]!.joined(separator: ","))\n" }.joined()
        let signed = names.joined(separator: ";")
        let lines = [method.uppercased(), Self.canonicalPath(path, encodeTwice: credentials.service != "s3"),
                     Self.canonicalQuery(query), canonicalHeaders, signed, payloadHash]
        return (lines.joined(separator: "\n"), signed)
    }

    package func stringToSign(_ canonicalRequest: String, stamp: String, scope: String) -> String {
        ["AWS4-HMAC-SHA256", stamp, scope, Self.hex(Data(SHA256.hash(data: Data(canonicalRequest.utf8))))].joined(separator: "\n")
    }

    func signingKey(day: String) -> Data {
        var key = Data("AWS4\(credentials.secretKey)".utf8)
        for part in [day, credentials.region, credentials.service, "aws4_request"] { key = Self.hmac(key, Data(part.utf8)) }
        return key
    }

    // MARK: - Canonical parts

    /// `yyyyMMdd'T'HHmmss'Z'` in UTC.
    package static func timestamp(_ date: Date) -> String {
        // Arithmetic, not Calendar: without ICU (FoundationEssentials) there is no "UTC" TimeZone by name.
        let seconds = Int(date.timeIntervalSince1970.rounded(.down))
        let (days, second) = (seconds >= 0 ? seconds / 86400 : (seconds - 86399) / 86400, ((seconds % 86400) + 86400) % 86400)
        let (year, month, day) = HTTPDate.civilFromDays(days)
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return "\(year)\(two(month))\(two(day))T\(two(second / 3600))\(two(second % 3600 / 60))\(two(second % 60))Z"
    }

    /// The host as sent: the port only when it is not the scheme's default.
    static func host(_ url: URL) -> String {
        let host = url.host(percentEncoded: true)?.lowercased() ?? ""
        guard let port = url.port else { return host }
        let scheme = url.scheme?.lowercased()
        return (scheme == "https" && port == 443) || (scheme == "http" && port == 80) ? host : "\(host):\(port)"
    }

    /// The path with dot segments and empty segments removed, each segment URI-encoded (twice for
    /// every service but S3, as AWS specifies: the already encoded path is encoded again).
    static func canonicalPath(_ raw: String, encodeTwice: Bool) -> String {
        guard encodeTwice else { return raw.isEmpty ? "/" : raw }
        var segments: [Substring] = []
        for segment in raw.split(separator: "/", omittingEmptySubsequences: true) {
            if segment == "." { continue }
            if segment == ".." { _ = segments.popLast(); continue }
            segments.append(segment)
        }
        var path = "/" + segments.map { encode(String($0)) }.joined(separator: "/")
        if raw.hasSuffix("/") && path != "/" { path += "/" }
        return path
    }

    /// Each `key=value` decoded, encoded again strictly (RFC 3986 unreserved kept), sorted by key then value.
    static func canonicalQuery(_ query: String?) -> String {
        guard let query, !query.isEmpty else { return "" }
        let pairs: [(String, String)] = query.split(separator: "&", omittingEmptySubsequences: true).map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            func strict(_ s: Substring?) -> String {
                let text = String(s ?? "")
                return encode(text.removingPercentEscapes() ?? text)
            }
            return (strict(parts.first), strict(parts.count > 1 ? parts[1] : nil))
        }
        return pairs.sorted { $0.0 == $1.0 ? $0.1 < $1.1 : $0.0 < $1.0 }.map { "\($0.0)=\($0.1)" }.joined(separator: "&")
    }

    /// RFC 3986 encoding: unreserved characters (`A-Z a-z 0-9 - . _ ~`) kept, every other byte `%XX`.
    static func encode(_ text: String) -> String {
        var out = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                out.append(Character(UnicodeScalar(byte)))
            default:
                let digits = Array("0123456789ABCDEF")
                out += "%" + String(digits[Int(byte >> 4)]) + String(digits[Int(byte & 15)])
            }
        }
        return out
    }

    /// Leading and trailing spaces removed, inner runs of spaces made one.
    static func trimmed(_ value: String) -> String {
        value.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    static func hmac(_ key: Data, _ data: Data) -> Data {
        Data(HMAC<SHA256>.authenticationCode(for: data, using: SymmetricKey(data: key)))
    }

    package static func hex(_ data: some Sequence<UInt8>) -> String {
        let digits = Array("0123456789abcdef")
        var out = ""
        for byte in data { out.append(digits[Int(byte >> 4)]); out.append(digits[Int(byte & 15)]) }
        return out
    }
}
