import APISupport
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The `URLProtocol` that answers requests with the installed ``TargetStubs``: put it in a
/// session configuration's `protocolClasses` (``TargetStubs/configuration(_:)`` does).
/// It takes every http(s) request while stubs are installed and their behaviour is not `.never`.
public final class StubURLProtocol: URLProtocol {
    /// The stubs that answer (`TargetStubs.install()`).
    static let active = Locked<TargetStubs?>(nil)

    private let state = Locked<DispatchWorkItem?>(nil)

    /// Whether stubs are installed to answer `request` (an http or https one).
    public override class func canInit(with request: URLRequest) -> Bool {
        guard let scheme = request.url?.scheme?.lowercased(), scheme == "http" || scheme == "https",
              let stubs = active.withLock({ $0 }) else { return false }
        return stubs.behavior != .never
    }

    /// The request as it is.
    public override class func canonicalRequest(for request: URLRequest) -> URLRequest { request }

    /// Answers with the matching target's sample (after its delay), or fails.
    public override func startLoading() {
        guard let stubs = Self.active.withLock({ $0 }) else {
            client?.urlProtocol(self, didFailWithError: URLError(.cancelled))
            return
        }
        let answer = stubs.answer(request)
        let delay: TimeInterval
        switch answer {
        case .response(_, _, let d), .failure(_, let d): delay = d
        }
        let work = DispatchWorkItem { [weak self] in self?.finish(answer) }
        state.withLock { $0 = work }
        if delay > 0 {
            DispatchQueue.global().asyncAfter(deadline: .now() + delay, execute: work)
        } else {
            DispatchQueue.global().async(execute: work)
        }
    }

    /// Cancels an answer still waiting for its delay.
    public override func stopLoading() {
        state.withLock { $0?.cancel() }
    }

    private func finish(_ answer: TargetStubs.Answer) {
        switch answer {
        case .response(let response, let data, _):
            client?.urlProtocol(self, didReceive: response, cacheStoragePolicy: .notAllowed)
            if !data.isEmpty { client?.urlProtocol(self, didLoad: data) }
            client?.urlProtocolDidFinishLoading(self)
        case .failure(let error, _):
            client?.urlProtocol(self, didFailWithError: error)
        }
    }
}
