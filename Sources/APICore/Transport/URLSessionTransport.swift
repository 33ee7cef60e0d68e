import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Live requests through Foundation's URLSession (libcurl underneath on Linux).
/// No cache, no cookie jar shared between runs; redirects are followed as URLSession does.
public struct URLSessionTransport: Transport {
    private let session: URLSession

    public init() {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.urlCache = nil
        session = URLSession(configuration: configuration)
    }

    public func send(_ request: PreparedRequest) async throws(APIError) -> Response {
        var urlRequest = URLRequest(url: request.url)
        urlRequest.httpMethod = request.method
        urlRequest.timeoutInterval = request.timeout
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
            let sent = urlRequest
            let (data, response) = try await withDeadline(request.timeout) { [session] in
                try await session.data(for: sent)
            }
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

    /// URLSession's own timeout is an idle timeout; this bounds the whole exchange, like curl's
    /// --max-time. It returns as soon as either side finishes and never waits for the loser:
    /// FoundationNetworking on Linux does not always end a data task promptly when cancelled,
    /// and a task group would wait for it.
    private func withDeadline<T: Sendable>(_ seconds: Double,
                                           _ work: @escaping @Sendable () async throws -> T) async throws -> T {
        let gate = ResumeOnce()
        return try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, Error>) in
            let worker = Task {
                do {
                    let value = try await work()
                    if gate.claim() { continuation.resume(returning: value) }
                } catch {
                    if gate.claim() { continuation.resume(throwing: error) }
                }
            }
            Task {
                try? await Task.sleep(nanoseconds: UInt64(seconds * 1e9))
                if gate.claim() {
                    worker.cancel()
                    continuation.resume(throwing: APIError.timedOut(seconds))
                }
            }
        }
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
        default: return .network("\(error.localizedDescription) (\(host), URLError \(error.code.rawValue))")
        }
    }
}

/// A flag that is claimed once, from any thread.
private final class ResumeOnce: @unchecked Sendable {
    private let lock = NSLock()
    private var claimed = false

    func claim() -> Bool {
        lock.lock()
        defer { lock.unlock() }
        if claimed { return false }
        claimed = true
        return true
    }
}
