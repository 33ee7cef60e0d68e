import APISupport
import APIDiagnostics
import APITargets
import APIEndpoint
import APITransport
import APIVerdict
import APILive
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The one send path. Every command that sends a target — `call`, `record`, `check`, and the
/// targets they `needs:` — goes through a `Caller`, which does in one order what sending means:
/// the needs run first and their captures fill the request (`FlowRunner`, once per caller), the
/// endpoint's plugins and the command's (`-v`, progress) wrap each attempt, OAuth2 tokens come
/// from the transport decorator, retries follow the policy (5xx and network failures, backoff,
/// `Retry-After`), `until:` polls, and the body goes where the command asks (memory, a file,
/// a stream). Commands never construct a transport or an `Exchange`.
///
/// What differs between commands on purpose is a parameter: the `mode` (live, or answering with
/// samples), the `policy` (retries), the plugins, and the `Transfer` of `send(_:answer:transfer:)`.
package struct Caller: Sendable {
    package enum Mode: Sendable, Equatable {
        /// Requests go to the network.
        case live
        /// Every target answers with a sample (`--stub`): nothing is sent.
        case stub
    }

    package let workspace: Workspace
    package let mode: Mode
    package let policy: SendPolicy
    private let sender: Sender
    private let flow: FlowRunner

    /// `transport`: the live transport (tests give their own); by default the one live transport,
    /// with OAuth2, Digest and AWS SigV4 as its decorators. `plugins`: the command's own, added after the endpoint's.
    package init(workspace: Workspace, mode: Mode = .live, policy: SendPolicy = SendPolicy(),
                plugins: @escaping @Sendable (PreparedCall) -> [any Plugin] = { _ in [] },
                transport: (any Transport)? = nil) {
        self.init(workspace: workspace, mode: mode, policy: policy, plugins: plugins, transport: transport,
                  find: { name throws(APIError) in try workspace.find(name) })
    }

    /// `find`: where needs are looked up (tests give targets that are in no folder).
    package init(workspace: Workspace, mode: Mode, policy: SendPolicy, plugins: @escaping @Sendable (PreparedCall) -> [any Plugin],
         transport: (any Transport)?, find: @escaping @Sendable (String) throws(APIError) -> (Service, Target)) {
        // Stubbed, an unset variable that only feeds the request is a placeholder; live, never.
        let workspace = workspace.offline(mode == .stub)
        self.workspace = workspace
        self.mode = mode
        self.policy = policy
        // Stubbed, nothing is sent: no live transport is made (its client costs start-up). A stream's
        // idle timeout wraps the rest; a `task: { websocket: }` request opens a WebSocket under the auth decorators.
        // The live transport sends with the workspace's settings (connection options, proxies, cookie jar).
        let source: Sender.Source = mode == .live
            ? .live(Decorated(transport ?? LiveTransport(workspace.settings), settings: workspace.settings)) : .stub
        let sender = Sender(source: source, policy: policy, plugins: plugins)
        self.sender = sender
        flow = FlowRunner(workspace: workspace, find: find, send: { call in await sender.send(call, answer: nil, transfer: Transfer()) })
    }

    /// `target`'s request, built with what the targets it needs captured (they run first, each
    /// once for this caller, on their samples in `stub` mode).
    package func prepare(_ target: Target, in service: Service) async throws(APIError) -> PreparedCall {
        let captured = target.needs.isEmpty ? [:] : try await flow.captured(for: target, in: service)
        return try workspace.build(target, in: service, captured: captured)
    }

    /// `prepare` for `service.target`.
    package func prepare(named name: String) async throws(APIError) -> PreparedCall {
        let (service, target) = try workspace.find(name)
        return try await prepare(target, in: service)
    }

    /// Sends a built call by the policy. In `stub` mode `answer` (default: the target's `sample:`)
    /// is the response. `transfer`: where the final body goes and who hears its head; an attempt
    /// that is sent again (a retry, an OAuth2 401) does not reach it.
    nonisolated(nonsending) package func send(_ call: PreparedCall, answer: Sample? = nil, transfer: Transfer = Transfer()) async -> Sent {
        await sender.send(call, answer: answer, transfer: transfer)
    }

    /// `target` run once for this caller (its needs first): what a check item judges and what
    /// the targets that need it capture from, whichever asks first.
    package func run(_ target: Target, in service: Service) async -> Result<FlowRunner.Run, APIError> {
        await flow.run(target, in: service)
    }

    /// The names of every target that `targets` need, directly or through others.
    package func needed(by targets: [(Service, Target)]) -> Set<String> {
        flow.needed(by: targets)
    }
}

/// What the `Caller` does with one built call: the transport for the mode, then one attempt,
/// retries, or `until:` polls.
struct Sender: Sendable {
    /// Where answers come from: the live transport (with its decorators), or each call's sample.
    enum Source: Sendable {
        case live(any Transport)
        case stub
    }

    let source: Source
    let policy: SendPolicy
    let plugins: @Sendable (PreparedCall) -> [any Plugin]

    var mode: Caller.Mode {
        if case .live = source { return .live }
        return .stub
    }

    nonisolated(nonsending) func send(_ call: PreparedCall, answer: Sample?, transfer: Transfer) async -> Sent {
        var transfer = transfer
        // A conversation ends as soon as the messages its expect: asks for have come.
        if call.request.websocket != nil, let expected = call.target.expect?.messages, !expected.isEmpty {
            transfer.enough = { Judge.met(expected, $0) }
        }
        if let reason = call.skipReason {  // `when:` is false: callers report it skipped; never sent
            return Sent(request: call.prepared, last: .failure(.stopped("\(call.target.qualifiedName) is skipped: \(reason)")), attempts: [])
        }
        let transport: any Transport
        switch source {
        case .live(let live):
            guard call.unset == .fail else {  // built offline: it may hold placeholders
                return Sent(request: call.prepared, last: .failure(.stopped("\(call.target.qualifiedName): a request built for --stub is never sent")),
                            attempts: [])
            }
            transport = live
        case .stub:
            do throws(APIError) {
                if let answer { transport = call.stub(answer) } else { transport = try call.stub(sample: nil) }
            } catch {
                return Sent(request: call.prepared, last: .failure(error), attempts: [])
            }
        }
        let plugins = call.plugins + self.plugins(call)
        if let until = call.until {
            return await poll(until, call, transport, plugins, transfer)
        }
        if mode == .live, call.reconnects > 0 {
            return await reconnecting(call, transport, plugins, transfer, reconnects: call.reconnects)
        }
        return await retrying(call, transport, plugins, transfer, tries: mode == .stub ? 1 : policy.retries + 1)
    }

    /// Attempts until one is final: a response below 500, a timeout, or the tries are used up.
    /// An OAuth2 401 is sent once more with a fresh token, at once (not counted as a retry).
    nonisolated(nonsending) private func retrying(_ call: PreparedCall, _ transport: any Transport, _ plugins: [any Plugin], _ transfer: Transfer,
                          tries: Int) async -> Sent {
        var attempts: [Attempt] = []
        var request = call.request
        var retry = 0
        while true {
            let start = monotonicSeconds()
            let isLast = retry == tries - 1
            let refreshes = mode == .live && !request.freshToken && (plugins.isEmpty ? request.hasOAuth2 : plugins.prepare(request).hasOAuth2)
            // The last attempt without a token to refresh is never held: the transfer as it is (no
            // gate and closures made for it, every request of a run without retries).
            let attempt = isLast && !refreshes ? transfer
                : transfer.holding { ($0.status >= 500 && !isLast) || ($0.status == 401 && refreshes) }
            var wait = 0.0
            do throws(APIError) {
                let exchange = try await Exchange.perform(request, transport: transport, plugins: plugins, transfer: attempt)
                let r = exchange.response
                if r.status == 401 && refreshes {
                    request.freshToken = true  // the token is no longer taken: once more with a fresh one
                } else {
                    attempts.append(.init(status: r.status, duration: r.duration, error: nil))
                    if r.status < 500 || isLast { return Sent(request: exchange.request, last: .success(r), attempts: attempts) }
                    let retryAfter = r.headers.value(of: "Retry-After").flatMap { SendPolicy.retryAfter($0, now: Date()) }
                    wait = policy.wait(before: retry, retryAfter: retryAfter)
                    retry += 1
                }
            } catch {
                attempts.append(.init(status: nil, duration: monotonicSeconds() - start, error: error.summary))
                if isLast || error.kind != .network {
                    return Sent(request: plugins.prepare(request), last: .failure(error), attempts: attempts)
                }
                wait = policy.wait(before: retry, retryAfter: nil)
                retry += 1
            }
            do throws(APIError) { try transfer.destination?.reset() } catch {
                return Sent(request: plugins.prepare(request), last: .failure(error), attempts: attempts)
            }
            if wait > 0 { try? await Task.sleep(nanoseconds: UInt64(wait * 1e9)) }
        }
    }

    /// `until:`: live, the request is repeated, each answer held in memory to be judged; a
    /// stub's sample is the one answer, which meets the condition or fails. The answer that
    /// meets it goes to `transfer` (its head, then its body to the file or stream).
    private func poll(_ until: Until, _ call: PreparedCall, _ transport: any Transport, _ plugins: [any Plugin],
                      _ transfer: Transfer) async -> Sent {
        let name = call.target.qualifiedName
        let stub = mode == .stub
        let (result, attempts) = await Polling.run(until, target: name) { () async throws(APIError) -> Exchange in
            let exchange = try await Exchange.perform(call.request, transport: transport, plugins: plugins,
                                                      transfer: Transfer(progress: transfer.progress))
            if stub, let unmet = Judge.failures(until.expect, validation: .none, response: exchange.response).first {
                throw .stopped("\(name): the sample does not meet until: \(unmet)")
            }
            return exchange
        }
        switch result {
        case .success(let exchange):
            do throws(APIError) {
                return Sent(request: exchange.request, last: .success(try deliver(exchange.response, to: transfer)),
                            attempts: attempts)
            } catch {
                return Sent(request: exchange.request, last: .failure(error), attempts: attempts)
            }
        case .failure(let error):
            return Sent(request: plugins.prepare(call.request), last: .failure(error), attempts: attempts)
        }
    }

    /// A response held in memory handed on as the transport would have: head, then the body
    /// into the file or the stream.
    private func deliver(_ response: Response, to transfer: Transfer) throws(APIError) -> Response {
        transfer.head(response)
        guard let sink = transfer.destination ?? transfer.stream else { return response }
        var out = response
        try sink.write(response.body)
        out.body = Data()
        out.saved = transfer.destination
        out.streamed = transfer.destination == nil
        return out
    }
}

/// The live transport under the decorators that act on a request's own settings: a stream's idle
/// timeout, digest, OAuth2 and AWS auth, a WebSocket conversation. A request with none of those
/// goes straight to `base` (five layers that would each hand it on unchanged: a load run sends
/// such requests tens of thousands of times a second).
struct Decorated: Transport {
    let base: any Transport
    let chain: any Transport

    package init(_ base: any Transport, settings: RunSettings) {
        self.base = base
        chain = IdleTransport(DigestTransport(OAuth2Transport(SigV4Transport(WebSocketTransport(base, settings: settings)))))
    }

    nonisolated(nonsending) func send(_ request: PreparedRequest) async throws(APIError) -> Response {
        try await send(request, transfer: Transfer())
    }

    /// The live transport's (the decorators add their auth after `-v` printed the request, as
    /// before); a WebSocket handshake is written by `WebSocketTransport`, which tells nothing.
    func headersSent(_ request: PreparedRequest, transfer: Transfer) -> [HeaderField] {
        request.websocket == nil ? base.headersSent(request, transfer: transfer) : request.headers
    }

    nonisolated(nonsending) func send(_ request: PreparedRequest, transfer: Transfer) async throws(APIError) -> Response {
        // What each decorator of `chain` looks at; with none set, each would pass the request on.
        if request.idle == nil, request.digest == nil, !request.hasOAuth2, request.aws == nil, request.websocket == nil {
            return try await base.send(request, transfer: transfer)
        }
        return try await chain.send(request, transfer: transfer)
    }
}
