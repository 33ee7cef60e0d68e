#if !os(Linux) || URLSessionTransport
import APISupport
import APIDiagnostics
import APITargets
import APIEndpoint
import APITransport
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The session's delegate: hands every redirect back as the response (the engine decides what
/// follows), and passes each task's head, body parts, upload progress and end to the task's
/// `URLSessionReceiver`. Its callbacks come on the session's serial delegate queue (tasks are told
/// apart by identity, not by their per-session number).
final class URLSessionEvents: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    private let receivers = Locked<[ObjectIdentifier: URLSessionReceiver]>([:])

    /// Called before the task is resumed, so no callback finds it missing.
    func watch(_ task: URLSessionTask, with receiver: URLSessionReceiver) {
        receivers.withLock { $0[ObjectIdentifier(task)] = receiver }
    }

    private func receiver(of task: URLSessionTask) -> URLSessionReceiver? {
        receivers.withLock { $0[ObjectIdentifier(task)] }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
                    newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void) {
        completionHandler(nil)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
                    completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void) {
        receiver(of: dataTask)?.head(response)
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        guard let receiver = receiver(of: dataTask) else { return }
        if !receiver.body(data) { dataTask.cancel() }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didSendBodyData bytesSent: Int64,
                    totalBytesSent: Int64, totalBytesExpectedToSend: Int64) {
        receiver(of: task)?.sent(totalBytesSent, of: totalBytesExpectedToSend)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
        let receiver = receivers.withLock { $0.removeValue(forKey: ObjectIdentifier(task)) }
        receiver?.finish(error)
    }
}

/// One hop's response as URLSession hands it over, under the same contract as async-http-client's
/// `ResponseCollector`: the head reported once (`Transfer.head`) unless it is a redirect to follow
/// (its body is dropped); the body written to the destination or stream part by part as it comes,
/// or held in memory up to `maxBody`; a compressed body stops once it inflates beyond
/// `ClientPool.inflationRatio` times the length its head announced (without one: at `maxBody`).
final class URLSessionReceiver: @unchecked Sendable {
    private let request: PreparedRequest
    private let transfer: Transfer
    private let lock = NSLock()
    private var continuation: CheckedContinuation<Exchanged, Error>?
    private var response: HTTPURLResponse?
    private var follows = false
    private var held = Data()
    private var received: Int64 = 0
    /// The compressed length the head announced (`Content-Encoding` with a `Content-Length`).
    private var compressed: Int64?
    /// A compressed body without a length: libcurl decodes before Foundation sees a byte and
    /// URLSession does not count the bytes on the wire, so the ratio cannot be known; such a body
    /// is bounded by `maxBody`, streamed or held.
    private var unsized = false
    private var total: Int64?
    private var failure: APIError?

    package init(request: PreparedRequest, transfer: Transfer, continuation: CheckedContinuation<Exchanged, Error>) {
        self.request = request
        self.transfer = transfer
        self.continuation = continuation
    }

    private var sink: (any BodySink)? { transfer.destination ?? transfer.stream }

    func head(_ response: URLResponse) {
        lock.lock()
        defer { lock.unlock() }
        guard let http = response as? HTTPURLResponse else { return }
        self.response = http
        let headers = Self.fields(http)
        follows = Redirect.follows(status: http.statusCode, location: headers.value(of: "Location"), after: request)
        guard !follows else { return }
        let length = headers.value(of: "Content-Length").flatMap { Int64($0) }
        let encoding = headers.value(of: "Content-Encoding")?.trimmingCharacters(in: .whitespaces).lowercased() ?? ""
        if encoding.isEmpty || encoding == "identity" {
            total = length
        } else {
            compressed = length
            unsized = length == nil
        }
        if sink != nil { transfer.progress(TransferProgress(.download, bytes: 0, total: total)) }
        transfer.head(Response(status: http.statusCode, headers: headers, body: Data(), duration: 0))
    }

    /// Takes one part of the body; false when the transfer must stop (`failure` says why).
    func body(_ data: Data) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        guard !follows, failure == nil else { return failure == nil }
        received += Int64(data.count)
        if let compressed, received > max(compressed, 1) * Int64(ClientPool.inflationRatio) {
            failure = .network(.inflatesTooMuch(host: request.hostAndPort, ratio: ClientPool.inflationRatio))
            return false
        }
        if unsized, received > request.maxBody {
            failure = .network(.bodyTooLarge(host: request.hostAndPort, limit: request.maxBody))
            return false
        }
        guard let sink else {
            guard received <= request.maxBody else {
                failure = .network(.bodyTooLarge(host: request.hostAndPort, limit: request.maxBody))
                return false
            }
            held.append(data)
            return true
        }
        do throws(APIError) {
            try sink.write(data)
        } catch {
            failure = error
            return false
        }
        transfer.progress(TransferProgress(.download, bytes: received, total: total))
        return true
    }

    func sent(_ bytes: Int64, of expected: Int64) {
        transfer.progress(TransferProgress(.upload, bytes: bytes, total: expected > 0 ? expected : nil))
    }

    /// The end of the task: the response, or why there is none.
    func finish(_ error: Error?) {
        lock.lock()
        let continuation = self.continuation
        self.continuation = nil
        let outcome: Result<Exchanged, Error>
        if let failure {
            outcome = .failure(failure)
        } else if let error {
            outcome = .failure(error)
        } else if let http = response {
            var response = Response(status: http.statusCode, headers: Self.fields(http), body: held, duration: 0)
            if !follows, sink != nil {
                response.saved = transfer.destination
                response.streamed = transfer.stream != nil
            }
            outcome = .success(Exchanged(response, follows: follows))
        } else {
            outcome = .failure(URLError(.badServerResponse))
        }
        held = Data()
        lock.unlock()
        continuation?.resume(with: outcome)
    }

    /// Response headers sorted by name, as every connector gives them; `Set-Cookie` fields that
    /// Foundation folded into one are one field each again (`CookieJar.unfold`).
    static func fields(_ http: HTTPURLResponse) -> [HeaderField] {
        HeaderField.fields(ofFoundation: http.allHeaderFields)
    }
}
#endif
