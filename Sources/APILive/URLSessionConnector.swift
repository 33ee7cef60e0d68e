#if !os(Linux) || URLSessionTransport
import APISupport
import APIDiagnostics
import APIEndpoint
import APITransport
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One exchange through Foundation's URLSession (libcurl underneath on Linux). No cache, and no
/// cookie store of its own: the engine's jar gives the request its `Cookie` and keeps the
/// response's `Set-Cookie`. Redirects are not left to URLSession: it hands each one back and the
/// engine decides (`Redirect`). The response body goes where the `Transfer` says as it comes (a
/// delegate per session, a `URLSessionReceiver` per task): into the destination or stream part by
/// part, else held up to `maxBody`; a compressed body stops beyond `ClientPool.inflationRatio` times
/// its announced length. A file body is sent with an upload task (read from disk as it goes); a
/// multipart body with files is streamed, which FoundationNetworking can only send chunked (without
/// a Content-Length). URLSession can neither route a connection nor be told a proxy per request:
/// `covers` leaves such exchanges, and TLS options, to `NIOConnector`.
struct URLSessionConnector: Connector {
    private let session: URLSession
    private let events = URLSessionEvents()

    init() {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.urlCache = nil
        configuration.httpCookieStorage = nil
        configuration.httpShouldSetCookies = false
        configuration.httpCookieAcceptPolicy = .never
        session = URLSession(configuration: configuration, delegate: events, delegateQueue: nil)
    }

    /// The deadline does not wait for a cancelled task: FoundationNetworking may take its time.
    static var cancelsPromptly: Bool { false }

    /// Whether URLSession can send this exchange (else async-http-client): no TLS options, no route
    /// (`--resolve`, `--connect-to`, a unix socket), no proxy, HTTP/2 allowed. The live choice
    /// asks more (`LiveTransport.connection(for:)`): bodies in memory both ways.
    func covers(_ request: PreparedRequest, _ hop: Hop) -> Bool {
        request.tls.isDefault && request.socket == nil && !hop.http1Only && hop.proxy == nil && hop.route == ConnectionOptions.Route()
    }

    /// One hop: the request as it is, its response as it came (a redirect included).
    func exchange(_ request: PreparedRequest, _ hop: Hop, transfer: Transfer, holder: Canceller) async throws(APIError) -> Exchanged {
        var urlRequest = URLRequest(url: request.url)
        urlRequest.httpMethod = request.method
        urlRequest.timeoutInterval = request.timeout
        urlRequest.httpShouldHandleCookies = false
        for header in request.headers {
            urlRequest.setValue(header.value, forHTTPHeaderField: header.name)
        }
        var upload: URL?
        var stream: PiecesInputStream?
        switch request.body {
        case .data(let data)?: urlRequest.httpBody = data
        case .file(let path)?:
            _ = try SizedBody.size(of: path)
            upload = URL(fileURLWithPath: path)
        case .multipart(let multipart)?:
            let body = try SizedBody(.multipart(multipart))
            #if canImport(FoundationNetworking)
            if request.body?.isStreamed == true {
                stream = PiecesInputStream(body)
                urlRequest.httpBodyStream = stream
            } else {
                urlRequest.httpBody = try body.data()
            }
            #else
            urlRequest.httpBody = try body.data()
            #endif
        case nil: break
        }
        do {
            let response = try await task(urlRequest, upload: upload, request: request, transfer: transfer, holder: holder)
            if let failure = stream?.failure { throw failure }
            return response
        } catch let error as APIError {
            throw error
        } catch let error as URLError {
            if let failure = stream?.failure { throw failure }
            throw Self.describe(error, request)
        } catch {
            throw .network(.other(error.localizedDescription))
        }
    }

    /// A delegate-driven task (off the cooperative pool), which `holder` cancels (the deadline).
    /// With `upload`, an upload task sends that file as the body.
    private func task(_ urlRequest: URLRequest, upload: URL?, request: PreparedRequest, transfer: Transfer,
                      holder: Canceller) async throws -> Exchanged {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Exchanged, Error>) in
            let receiver = URLSessionReceiver(request: request, transfer: transfer, continuation: continuation)
            let task = upload.map { session.uploadTask(with: urlRequest, fromFile: $0) } ?? session.dataTask(with: urlRequest)
            events.watch(task, with: receiver)
            holder.set { task.cancel() }
            task.resume()
        }
    }

    /// libcurl's texts as failures, where its words mislead (an oversized head is "Out of memory" there).
    static func libcurlFailure(_ text: String, host: String) -> NetworkFailure? {
        if text.contains("SSL certificate problem") {
            return .tls(host: host, reason: text.replacingOccurrences(of: "SSL certificate problem: ", with: "")
                + "; trust its CA with --cacert FILE, or skip verification with --insecure")
        }
        if text.contains("Out of memory") { return .headTooLarge(host: host) }
        if text.contains("HTTP/0.9") { return .malformedStatusLine(host: host) }
        if text.contains("content unencoding") { return .undecodable(host: host) }
        if text.hasPrefix("transfer closed with") { return .truncated(host: host, expected: nil, received: nil) }
        return nil
    }

    static func describe(_ error: URLError, _ request: PreparedRequest) -> APIError {
        let host = request.hostAndPort
        switch error.code {
        case .timedOut: return .timedOut(request.timeout)
        case .cannotConnectToHost: return .network(.refused(host: host))
        case .cannotFindHost, .dnsLookupFailed: return .network(.dns(host: host))
        case .networkConnectionLost: return .network(.reset(host: host))
        case .notConnectedToInternet: return .network(.offline)
        case .secureConnectionFailed, .serverCertificateUntrusted, .serverCertificateHasBadDate,
             .serverCertificateNotYetValid, .serverCertificateHasUnknownRoot, .clientCertificateRejected:
            return .network(.tls(host: host, reason: error.localizedDescription))
        case .badServerResponse: return .network(.malformedResponse(host: host, detail: nil))
        case .httpTooManyRedirects, .redirectToNonExistentLocation: return .network(.tooManyRedirects(host: host))
        case .cancelled: return .network(.cancelled(host: host))
        default: return .network(libcurlFailure(error.localizedDescription, host: host)
            ?? .other("\(error.localizedDescription) (\(host), URLError \(error.code.rawValue))"))
        }
    }
}
#endif
