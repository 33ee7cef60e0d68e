import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Live requests through Foundation's URLSession (libcurl underneath on Linux).
/// No cache, no cookie jar shared between runs; redirects are followed as URLSession does.
public struct URLSessionTransport: Transport {
    private let session: URLSession
    /// For `cookies: false`: no cookie store at all. FoundationNetworking drops a request's
    /// `httpShouldHandleCookies = false` when it follows a redirect, so the flag alone is not enough.
    private let cookieless: URLSession

    public init() {
        session = URLSession(configuration: Self.configuration(cookies: true))
        cookieless = URLSession(configuration: Self.configuration(cookies: false))
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

    public func send(_ request: PreparedRequest) async throws(APIError) -> Response {
        var urlRequest = URLRequest(url: request.url)
        urlRequest.httpMethod = request.method
        urlRequest.timeoutInterval = request.timeout
        urlRequest.httpShouldHandleCookies = request.cookies
        for header in request.headers {
            urlRequest.setValue(header.value, forHTTPHeaderField: header.name)
        }
        let start = DispatchTime.now()
        do {
            switch request.body {
            case .data(let data)?: urlRequest.httpBody = data
            case .file(let path)?: urlRequest.httpBody = try Data(contentsOf: URL(fileURLWithPath: path))
            case nil: break
            }
            let (data, response) = try await exchange(urlRequest, on: request.cookies ? session : cookieless,
                                                      deadline: request.timeout)
            guard let http = response as? HTTPURLResponse else { throw APIError.network("the response is not HTTP") }
            let headers = http.allHeaderFields.compactMap { key, value -> HeaderField? in
                guard let name = key as? String else { return nil }
                return HeaderField(name, "\(value)")
            }.sorted { $0.name.lowercased() < $1.name.lowercased() }
            let seconds = Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
            return Response(status: http.statusCode, headers: headers, body: data, duration: seconds)
        } catch let error as APIError {
            throw error
        } catch let error as URLError {
            throw Self.describe(error, request)
        } catch {
            throw .network(error.localizedDescription)
        }
    }

    /// A completion-handler data task (off the cooperative pool) raced against the deadline.
    private func exchange(_ urlRequest: URLRequest, on session: URLSession,
                          deadline seconds: Double) async throws -> (Data, URLResponse) {
        let holder = DataTaskHolder()
        return try await Deadline.race(seconds, onTimeout: { holder.task?.cancel() }) {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<(Data, URLResponse), Error>) in
                let task = session.dataTask(with: urlRequest) { data, response, error in
                    if let error {
                        continuation.resume(throwing: error)
                    } else if let response {
                        continuation.resume(returning: (data ?? Data(), response))
                    } else {
                        continuation.resume(throwing: URLError(.badServerResponse))
                    }
                }
                holder.task = task
                task.resume()
            }
        }
    }

    /// libcurl's texts, reworded where they mislead (an oversized head is "Out of memory" there).
    static func libcurlProblem(_ text: String, host: String) -> String? {
        if text.contains("SSL certificate problem") {
            return "TLS handshake with \(host) failed: \(text.replacingOccurrences(of: "SSL certificate problem: ", with: "")); "
                + "trust its CA with --cacert FILE, or skip verification with --insecure"
        }
        if text.contains("Out of memory") { return "the response head from \(host) is too large" }
        if text.contains("HTTP/0.9") { return "\(host) sent a malformed status line" }
        if text.contains("content unencoding") { return "\(host) sent a compressed body that does not decode (\(text))" }
        if text.hasPrefix("transfer closed with") { return "\(host) closed the connection before the body was complete (\(text))" }
        return nil
    }

    static func describe(_ error: URLError, _ request: PreparedRequest) -> APIError {
        let host = request.url.host.map { h in request.url.port.map { "\(h):\($0)" } ?? h } ?? request.url.absoluteString
        switch error.code {
        case .timedOut: return .timedOut(request.timeout)
        case .cannotConnectToHost: return .network("cannot connect to \(host) (connection refused)")
        case .cannotFindHost, .dnsLookupFailed: return .network("cannot resolve host \(host)")
        case .networkConnectionLost: return .network("the connection to \(host) was lost")
        case .notConnectedToInternet: return .network("not connected to a network")
        case .secureConnectionFailed, .serverCertificateUntrusted, .serverCertificateHasBadDate,
             .serverCertificateNotYetValid, .serverCertificateHasUnknownRoot, .clientCertificateRejected:
            return .network("TLS handshake with \(host) failed: \(error.localizedDescription)")
        case .badServerResponse: return .network("\(host) sent a malformed response")
        case .httpTooManyRedirects, .redirectToNonExistentLocation: return .network("too many redirects from \(host)")
        case .cancelled: return .network("the request to \(host) was cancelled")
        default: return .network(libcurlProblem(error.localizedDescription, host: host)
            ?? "\(error.localizedDescription) (\(host), URLError \(error.code.rawValue))")
        }
    }
}

/// The data task, for cancelling it from the deadline.
private final class DataTaskHolder: @unchecked Sendable {
    private let lock = NSLock()
    private var _task: URLSessionDataTask?
    var task: URLSessionDataTask? {
        get { lock.lock(); defer { lock.unlock() }; return _task }
        set { lock.lock(); _task = newValue; lock.unlock() }
    }
}
