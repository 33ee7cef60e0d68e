import APISupport
import APIDiagnostics
import APIEndpoint
import APITransport
#if !os(Linux) || URLSessionTransport
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Live requests through Foundation's URLSession (libcurl underneath on Linux).
/// No cache, no cookie jar shared between runs. Redirects are not left to URLSession: it hands
/// each one back and `Redirect` decides, as for async-http-client (`--no-follow`, at most
/// `Redirect.limit` hops, no credential to another origin); one deadline bounds all the hops.
/// The response body goes where the `Transfer` says as it comes (a delegate per session, a
/// `URLSessionReceiver` per task): into the destination or stream part by part, else held up to
/// `maxBody`; a compressed body stops beyond `ClientPool.inflationRatio` times its announced
/// length. A file body is sent with an upload task (read from disk as it goes); a multipart body
/// with files is streamed, which FoundationNetworking can only send chunked (without a Content-Length).
/// On Linux `LiveTransport` sends downloads and TLS options through async-http-client instead.
package struct URLSessionTransport: Transport {
    private let session: URLSession
    /// For `cookies: false`: no cookie store at all. FoundationNetworking drops a request's
    /// `httpShouldHandleCookies = false` when it follows a redirect, so the flag alone is not enough.
    private let cookieless: URLSession
    private let events = URLSessionEvents()

    package init() {
        session = URLSession(configuration: Self.configuration(cookies: true), delegate: events, delegateQueue: nil)
        cookieless = URLSession(configuration: Self.configuration(cookies: false), delegate: events, delegateQueue: nil)
    }

    private static func configuration(cookies: Bool) -> URLSessionConfiguration {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.urlCache = nil
        if !cookies {
            configuration.httpCookieStorage = nil
            configuration.httpShouldSetCookies = false
            configuration.httpCookieAcceptPolicy = .never
        }
        return configuration
    }

    package func send(_ request: PreparedRequest) async throws(APIError) -> Response {
        try await send(request, transfer: Transfer())
    }

    package func send(_ request: PreparedRequest, transfer: Transfer) async throws(APIError) -> Response {
        let start = DispatchTime.now()
        let running = Locked<URLSessionTask?>(nil)
        do {
            return try await Deadline.race(request.timeout, onTimeout: { running.current?.cancel() }) { () async throws -> Response in
                var hop = request
                for _ in 0...Redirect.limit {
                    var response = try await self.exchange(hop, transfer: transfer, running: running)
                    if let next = Redirect.next(status: response.status, location: response.headers.value(of: "Location"), after: hop) {
                        hop = next
                        continue
                    }
                    response.duration = Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
                    return response
                }
                throw APIError.network(.tooManyRedirects(host: request.hostAndPort))
            }
        } catch let error as APIError {
            throw error
        } catch {
            throw .network(.other(error.localizedDescription))
        }
    }

    /// One hop: the request as it is, its response as it came (a redirect included).
    private func exchange(_ request: PreparedRequest, transfer: Transfer,
                          running: Locked<URLSessionTask?>) async throws(APIError) -> Response {
        var urlRequest = URLRequest(url: request.url)
        urlRequest.httpMethod = request.method
        urlRequest.timeoutInterval = request.timeout
        urlRequest.httpShouldHandleCookies = request.cookies
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
                urlRequest.httpBody = try PiecesInputStream.collect(body)
            }
            #else
            urlRequest.httpBody = try PiecesInputStream.collect(body)
            #endif
        case nil: break
        }
        do {
            let response = try await task(urlRequest, upload: upload, request: request, transfer: transfer,
                                          on: request.cookies ? session : cookieless, running: running)
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

    /// A delegate-driven task (off the cooperative pool), kept in `running` so the deadline can
    /// cancel it. With `upload`, an upload task sends that file as the body.
    private func task(_ urlRequest: URLRequest, upload: URL?, request: PreparedRequest, transfer: Transfer,
                      on session: URLSession, running: Locked<URLSessionTask?>) async throws -> Response {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Response, Error>) in
            let receiver = URLSessionReceiver(request: request, transfer: transfer, continuation: continuation)
            let task = upload.map { session.uploadTask(with: urlRequest, fromFile: $0) } ?? session.dataTask(with: urlRequest)
            events.watch(task, with: receiver)
            running.set(task)
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
