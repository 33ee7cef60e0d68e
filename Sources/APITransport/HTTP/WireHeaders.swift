import APISupport
import APIEndpoint
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension PreparedRequest {
    /// Methods whose request sends no `Content-Length: 0` when it has no body (RFC 9110; what
    /// async-http-client does).
    package static let bodilessMethods: Set<String> = ["GET", "HEAD", "DELETE", "CONNECT", "TRACE"]

    /// The header block an HTTP/1.1 request goes out with, decided in this one place: the request's
    /// own headers in order (its own `Content-Length`/`Transfer-Encoding` dropped: the body frames
    /// itself), `Host` when it names none (the port only when not the scheme's default),
    /// `Accept-Encoding: deflate, gzip` when it names none (what the response decompressor asks for),
    /// then `Content-Length` of a body of `bodyLength` bytes (`0` for a method that carries a body,
    /// nothing for GET, HEAD, DELETE, CONNECT, TRACE without one). `KeepAliveConnector` writes exactly
    /// these; async-http-client is handed them and adds none of its own; `-v` prints them.
    package func wireHeaders(bodyLength: Int64) -> [HeaderField] {
        wireHeaders(bodyLength: bodyLength, host: url.host, port: url.port)
    }

    /// `wireHeaders(bodyLength:)` with `url.host` and `url.port` already taken apart (Foundation
    /// parses the URL again for each): the keep-alive connector needs them too.
    package func wireHeaders(bodyLength: Int64, host: String?, port: Int?) -> [HeaderField] {
        var fields = [HeaderField]()
        fields.reserveCapacity(headers.count + 3)
        var hasHost = false, hasAcceptEncoding = false
        for header in headers {
            if header.name.equalsIgnoringCase("Content-Length") || header.name.equalsIgnoringCase("Transfer-Encoding") { continue }
            if header.name.equalsIgnoringCase("Host") { hasHost = true }
            if header.name.equalsIgnoringCase("Accept-Encoding") { hasAcceptEncoding = true }
            fields.append(header)
        }
        if !hasHost, let host {
            // Its bytes searched for the colon (a `Character` search breaks the host into graphemes).
            let name = host.utf8.contains(UInt8(ascii: ":")) && !host.hasPrefix("[") ? "[\(host)]" : host
            // The port unless it is the scheme's default (the scheme looked at only for 80 and 443).
            fields.append(HeaderField("Host", port.flatMap { ($0 == 80 || $0 == 443) && $0 == defaultPort ? nil : name + ":" + String($0) } ?? name))
        }
        if !hasAcceptEncoding { fields.append(HeaderField("Accept-Encoding", "deflate, gzip")) }
        if bodyLength > 0 || method != "GET" && !Self.bodilessMethods.contains(method) {  // GET first: no hashing
            fields.append(HeaderField("Content-Length", String(bodyLength)))
        }
        return fields
    }

    /// 443 for https and wss, else 80.
    private var defaultPort: Int {
        let scheme = url.scheme ?? "http"
        return scheme.equalsIgnoringCase("https") || scheme.equalsIgnoringCase("wss") ? 443 : 80
    }

    /// `wireHeaders(bodyLength:)` with the body's length: in memory, or its files measured now (a
    /// file that cannot be read leaves the framing out: sending it fails on its own).
    package var wireHeaders: [HeaderField] {
        switch body {
        case nil: return wireHeaders(bodyLength: 0)
        case .data(let data)?: return wireHeaders(bodyLength: Int64(data.count))
        case let streamed?:
            guard let sized = try? SizedBody(streamed) else {
                return wireHeaders(bodyLength: 0).filter { !$0.name.equalsIgnoringCase("Content-Length") }
            }
            return wireHeaders(bodyLength: sized.length)
        }
    }
}

extension HeaderField {
    /// A Foundation response's `allHeaderFields` (URLSession's `HTTPURLResponse`) as the connectors
    /// give headers: sorted by name, and `Set-Cookie` fields Foundation folded into one, one field
    /// each again (`CookieJar.unfold`), for the jar.
    package static func fields(ofFoundation all: [AnyHashable: Any]) -> [HeaderField] {
        all.flatMap { key, value -> [HeaderField] in
            guard let name = key as? String else { return [] }
            let text = "\(value)"
            if name.equalsIgnoringCase("Set-Cookie") { return CookieJar.unfold(text).map { HeaderField(name, $0) } }
            return [HeaderField(name, text)]
        }.sorted { $0.name.lowercased() < $1.name.lowercased() }
    }
}
