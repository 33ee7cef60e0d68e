import APISupport
import APIEndpoint
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What `KeepAliveConnector` last worked out from a request's URL and last encoded, with what it
/// came from: a load run's virtual user sends the same request again and again, and when nothing
/// it is built from changed (URL, method, headers with the jar's cookies, body) the same bytes
/// go out again, checked and encoded once. Taking a URL apart (`host`, `port`, `path`, `query`:
/// Foundation parses it again each time) and encoding the head were a tenth of a load run's CPU.
/// One entry per engine (a `Caller`'s; a closed-model user has its own): an engine that
/// alternates requests encodes each as before and only compares in vain.
final class KeepAliveRequestMemo: @unchecked Sendable {  // its state is only used under `mutex`
    /// A request as encoded, and the parts of its URL the exchange needs.
    struct Encoded {
        var wire: KeepAliveRequest
        var host: String
        var port: Int?
    }

    private struct Entry {
        var url: URL
        var method: String
        var headers: [HeaderField]
        var body: PreparedRequest.Body?
        var encoded: Encoded

        func matches(_ request: PreparedRequest) -> Bool {
            url == request.url && method == request.method && headers == request.headers && body == request.body
        }
    }

    /// What the connector needs of a URL: whether it is plain http with a host (`covers`), and then
    /// its host and port (`encode`, the address).
    struct URLParts {
        var plain: Bool
        var host: String?
        var port: Int?
    }

    /// A header block as encoded, and what it came from: the request's own headers, method, host,
    /// port and body length. For a plain-http request (all this connector sends) `wireHeaders`
    /// reads nothing else, so requests to other paths and queries share the block.
    private struct Block {
        var headers: [HeaderField]
        var method: String
        var host: String
        var port: Int?
        var bodyLength: Int
        var block: KeepAliveRequest.HeaderBlock
    }

    private let mutex = Mutex()
    private var last: Entry?
    private var lastBlock: Block?
    /// The URL asked about last, and its parts.
    private var judged: (url: URL, parts: URLParts)?

    /// The encoding of `request` when it is the one encoded last.
    func encoded(_ request: PreparedRequest) -> Encoded? {
        // Compared in place (`guard let last` copied the whole entry, every field retained, a request).
        mutex.withLock { last?.matches(request) == true ? last?.encoded : nil }
    }

    func keep(_ encoded: Encoded, of request: PreparedRequest) {
        let entry = Entry(url: request.url, method: request.method, headers: request.headers, body: request.body,
                          encoded: encoded)
        mutex.withLock { last = entry }
    }

    /// The header block of `request` (sent to `host`:`port` with a body of `bodyLength` bytes): the
    /// one made last when it came from the same headers, method, host, port and body length, else `make()`'s.
    func block(of request: PreparedRequest, host: String, port: Int?, bodyLength: Int,
               make: () throws -> KeepAliveRequest.HeaderBlock) rethrows -> KeepAliveRequest.HeaderBlock {
        let headers = request.headers, method = request.method
        if let known = mutex.withLock({ () -> KeepAliveRequest.HeaderBlock? in
            guard let b = lastBlock, b.bodyLength == bodyLength, b.port == port, b.host == host, b.method == method,
                  b.headers == headers else { return nil }
            return b.block
        }) { return known }
        let block = try make()
        let entry = Block(headers: headers, method: method, host: host, port: port, bodyLength: bodyLength, block: block)
        mutex.withLock { lastBlock = entry }
        return block
    }

    /// `url`'s parts, taken apart once for the URL asked last: `covers` asks first, then `encode`
    /// for the same request (each of `host`, `port` and `scheme` parses the URL again).
    func parts(_ url: URL) -> URLParts {
        if let known = mutex.withLock({ judged.flatMap { $0.url == url ? $0.parts : nil } }) { return known }
        var parts = URLParts(plain: false)
        if (url.scheme ?? "").equalsIgnoringCase("http"), let host = url.host {
            parts = URLParts(plain: true, host: host, port: url.port)
        }
        mutex.withLock { judged = (url, parts) }
        return parts
    }
}
