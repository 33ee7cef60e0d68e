import APISupport
import APIDiagnostics
import APITargets
import APIEndpoint
import APITransport
import Dispatch
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import NIOCore
import NIOHTTP1

/// Plain `http://` HTTP/1.1 exchanges whose bodies are held in memory or streamed to stdout, over
/// keep-alive connections of our own (`KeepAlivePool`: requests encoded once, responses parsed from the
/// bytes by `KeepAliveResponseParser`, one request at a time on a connection, connections kept per event loop): what a load run and a `check` send thousands of
/// times. async-http-client's per-request machinery (request bag, connection-pool state machines,
/// futures, its task and delegate) was a quarter of a load run's CPU (perf, load-4 notes); this
/// does the same exchange with one promise. The connector contract is `NIOConnector`'s: the same
/// `Host:` and framing headers, gzip/deflate inflated with the same ratio limit (NIO's response
/// decompressor, which asks for them as async-http-client does), `maxBody`, the same errors.
/// Everything else — TLS, proxies, unix sockets, request bodies streamed from files, a response
/// body going into a file — `covers` leaves to `NIOConnector`.
struct KeepAliveConnector: Connector {
    private let memo = KeepAliveRequestMemo()

    static var cancelsPromptly: Bool { true }  // the canceller closes the connection in use

    /// Whether this connector sends `request` (else `NIOConnector` does): plain http, no proxy, no
    /// unix socket, the body in memory (or none), the response body held in memory or streamed
    /// (stdout; not into a file). The same answer for every request of a target (none of it
    /// depends on what a request captured).
    func covers(_ request: PreparedRequest, _ transfer: Transfer, _ hop: Hop) -> Bool {
        guard transfer.destination == nil, hop.proxy == nil, hop.route.socket == nil, request.websocket == nil,
              !request.http2PriorKnowledge else { return false }
        if case .some(let body) = request.body, case .data = body {} else if request.body != nil { return false }
        return memo.parts(request.url).plain
    }


    nonisolated(nonsending) func exchange(_ request: PreparedRequest, _ hop: Hop, transfer: Transfer, holder: Canceller) async throws(APIError) -> Exchanged {
        do {
            return try await send(request, hop, transfer: transfer, holder: holder)
        } catch let error as APIError {
            throw error
        } catch let failed as KeepAlivePool.Failed {
            // The stream's own failure (stdout, what a terminal holds) as it said it.
            if let error = failed.error as? APIError { throw error }
            if let flood = failed.error as? KeepAliveResponseParser.TooManyInterimResponses {
                throw APIError.network(.malformedResponse(host: request.hostAndPort, detail: flood.description))
            }
            throw NIOConnector.describe(failed.error, request, socket: nil, received: failed.counts)
        } catch {
            if let e = error as? ChannelError, case .connectTimeout = e { throw APIError.timedOut(request.timeout) }
            throw NIOConnector.describe(error, request, socket: nil, received: (0, nil))
        }
    }

    @inline(__always)  // into `exchange`: one async call less a request
    nonisolated(nonsending) private func send(_ request: PreparedRequest, _ hop: Hop, transfer: Transfer, holder: Canceller) async throws -> Exchanged {
        let encoded: KeepAliveRequestMemo.Encoded
        if let known = memo.encoded(request) {
            encoded = known
        } else {
            encoded = try encode(request)
            memo.keep(encoded, of: request)
        }
        let wire = encoded.wire, host = encoded.host
        let address = KeepAlivePool.Address(host: hop.route.dns[host] ?? host, port: hop.route.port ?? encoded.port ?? 80)
        // As `ResponseCollector` does: the head (no body) first, then progress as parts are written.
        let stream = transfer.stream.map { KeepAliveHandler.Stream($0, transfer: transfer) }
        let received = try await KeepAlivePool.shared.exchange(
            wire, to: address, timeout: request.timeout, limit: request.maxBody, stream: stream, holder: holder,
            follows: { head in
                Redirect.follows(status: head.status, location: head.fields.value(of: "Location"), after: request)
            })
        // The head's fields, sorted once as they were read (a streamed answer's head went out with the same).
        var response = Response(status: received.head.status, headers: received.head.fields,
                                body: received.body.withUnsafeReadableBytes { Data($0) }, duration: 0)
        response.httpVersion = ResponseCollector.version(received.head.version)
        if !received.follows {
            response.streamed = stream != nil
            // A streamed body's head went out before the body (`Stream.head`); a held one's goes now.
            if stream == nil { transfer.head(response) }
        }
        return Exchanged(response, follows: received.follows)
    }

    /// `request` on the wire: the header block of `PreparedRequest.wireHeaders` (the one place
    /// Host, framing and Accept-Encoding are decided, as async-http-client is handed them too).
    private func encode(_ request: PreparedRequest) throws -> KeepAliveRequestMemo.Encoded {
        // Taken apart when `covers` said yes to this URL (plain http with a host).
        let url = memo.parts(request.url)
        guard let host = url.host else { throw APIError.network(.failed(host: request.hostAndPort, detail: "no host")) }
        let port = url.port
        var body: Data?
        if case .data(let data)? = request.body, !data.isEmpty { body = data }
        let length = body?.count ?? 0
        let block = try memo.block(of: request, host: host, port: port, bodyLength: length) {
            try KeepAliveRequest.HeaderBlock(request.wireHeaders(bodyLength: Int64(length), host: host, port: port))
        }
        var uri = request.url.path(percentEncoded: true)
        if uri.isEmpty { uri = "/" }
        if let query = request.url.query(percentEncoded: true) { uri += "?" + query }
        return .init(wire: try KeepAliveRequest(method: request.method, uri: uri, block: block, body: body), host: host, port: port)
    }
}
