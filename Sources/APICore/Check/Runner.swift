import Dispatch
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Runs check items concurrently — at most `jobs` in flight — and hands each result to `emit` in
/// item order as soon as it and every result before it are done.
public struct CheckRunner: Sendable {
    public struct Options: Sendable {
        public var jobs: Int
        /// Extra attempts after a network failure or a 5xx (never after a timeout, never for stubs).
        public var retries: Int
        /// After the first failure, start nothing new; what did not start is skipped.
        public var failFast: Bool
        /// Seconds before the first retry; doubled for each next one. A `Retry-After: N` wins.
        public var backoff: Double
        /// The longest wait between attempts, whatever Retry-After says.
        public var maxWait: Double

        public init(jobs: Int = 8, retries: Int = 0, failFast: Bool = false, backoff: Double = 0.5, maxWait: Double = 30) {
            self.jobs = jobs
            self.retries = retries
            self.failFast = failFast
            self.backoff = backoff
            self.maxWait = maxWait
        }
    }

    public var options: Options
    /// The live transport, shared by every request (one URLSession).
    public var transport: any Transport

    public init(options: Options, transport: any Transport) {
        self.options = options
        self.transport = transport
    }

    public func run(_ items: [CheckItem], emit: (Int, CheckResult) -> Void) async -> [CheckResult] {
        var results = [CheckResult?](repeating: nil, count: items.count)
        var next = 0
        var started = 0
        var stopped = false
        await withTaskGroup(of: (Int, CheckResult).self) { group in
            while started < min(max(options.jobs, 1), items.count) {
                let i = started
                group.addTask { (i, await self.execute(items[i])) }
                started += 1
            }
            while let (i, result) = await group.next() {
                results[i] = result
                if options.failFast, result.outcome == .failed { stopped = true }
                if !stopped, started < items.count {
                    let j = started
                    group.addTask { (j, await self.execute(items[j])) }
                    started += 1
                }
                while next < items.count, let r = results[next] { emit(next, r); next += 1 }
            }
        }
        for i in started..<items.count {
            let item = items[i]
            results[i] = CheckResult(name: item.name, service: item.service, target: item.target, sample: item.sample,
                                     outcome: .skipped, skipReason: "not run: --fail-fast stopped at the first failure")
        }
        while next < items.count, let r = results[next] { emit(next, r); next += 1 }
        return results.compactMap { $0 }
    }

    /// Sends one item (with its retries) and judges the last response.
    public func execute(_ item: CheckItem) async -> CheckResult {
        var result = CheckResult(name: item.name, service: item.service, target: item.target, sample: item.sample,
                                 outcome: .skipped)
        switch item.work {
        case .skip(let reason):
            result.skipReason = reason
            return result
        case .deferred(let make):
            var next = item
            next.work = await make()
            return await execute(next)
        case .fail(let error):
            (result.outcome, result.kind, result.messages) = (.failed, Self.kind(of: error), [Self.message(error)])
            return result
        case let .send(request, validation, expect, stub, expectFailure):
            let sent = await send(request, name: item.name, until: item.until, stub: stub)
            return judged(sent, item, validation: validation, expect: expect, expectFailure: expectFailure)
        case .shared(let run):
            switch await run() {
            case .success(let run):
                return judged(run.sent, item, validation: run.call.endpoint.validation, expect: run.call.target.expect,
                              expectFailure: false)
            case .failure(let error):
                (result.outcome, result.kind, result.messages) = (.failed, Self.kind(of: error), [Self.message(error)])
                return result
            }
        }
    }

    /// How `FlowRunner` sends each target of a check run: as an item is sent (retries, `until:`),
    /// so a target that is checked and needed is one exchange, reported with all its attempts.
    public var policy: FlowRunner.Send {
        { call, stub in await send(call.prepared, name: call.target.qualifiedName, until: call.target.until, stub: stub) }
    }

    /// The request sent with its retries, or polled until its `until:` holds.
    private func send(_ request: PreparedRequest, name: String, until: Until?, stub: StubTransport?) async -> FlowRunner.Sent {
        let (last, attempts) = if let until {
            await poll(until, name, request, stub: stub)
        } else {
            await send(request, stub: stub)
        }
        return FlowRunner.Sent(request: request, last: last, attempts: attempts)
    }

    /// The item's result: its last response judged by `expect:` (else `validate:`), with every attempt.
    private func judged(_ sent: FlowRunner.Sent, _ item: CheckItem, validation: Validation, expect: Expectations?,
                        expectFailure: Bool) -> CheckResult {
        var result = CheckResult(name: item.name, service: item.service, target: item.target, sample: item.sample,
                                 outcome: .skipped)
        let last = sent.last
        let verdict = Verdict.judge(last, expect: expect, validation: validation, expectFailure: expectFailure)
        result.request = CheckResult.Request(sent.request)
        if case .failure(.network(let failure)) = last { result.networkFailure = failure.kind }
        result.attempts = sent.attempts
        result.outcome = verdict.passed ? .passed : .failed
        (result.kind, result.messages, result.failedAsExpected) = (verdict.kind, verdict.messages, verdict.failedAsExpected)
        if let baseline = item.drift, case .success(let response) = last {
            result.apply(drift: baseline.differences(from: response), mode: baseline.mode)
        }
        result.flaky = Self.isFlaky(result)
        return result
    }

    /// Flaky: passed, but an earlier attempt failed (a 5xx or no response: what is retried).
    public static func isFlaky(_ r: CheckResult) -> Bool {
        r.outcome == .passed && r.attempts.dropLast().contains { ($0.status ?? 500) >= 500 }
    }

    /// Attempts until one is final: a response below 500, a timeout, or the retries are used up.
    private func send(_ request: PreparedRequest, stub: StubTransport?)
        async -> (Result<Response, APIError>, [CheckResult.Attempt]) {
        var attempts: [CheckResult.Attempt] = []
        let tries = stub == nil ? max(options.retries, 0) + 1 : 1
        var n = 0
        while true {
            let start = DispatchTime.now()
            var retryAfter: Double?
            do {
                let r = try await perform(request, stub: stub).response
                attempts.append(.init(status: r.status, duration: r.duration, error: nil))
                if r.status < 500 || n == tries - 1 { return (.success(r), attempts) }
                retryAfter = r.headers.value(of: "Retry-After").flatMap { Self.retryAfter($0, now: Date()) }
            } catch {
                let seconds = Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
                attempts.append(.init(status: nil, duration: seconds, error: Self.message(error)))
                if n == tries - 1 { return (.failure(error), attempts) }
                if case .timedOut = error { return (.failure(error), attempts) }
            }
            let wait = min(retryAfter ?? options.backoff * Double(1 << min(n, 30)), options.maxWait)
            if wait > 0 { try? await Task.sleep(nanoseconds: UInt64(wait * 1e9)) }
            n += 1
        }
    }

    /// `until:`: live, the request is repeated; a stub's sample is the one answer, which meets
    /// the condition or fails.
    private func poll(_ until: Until, _ name: String, _ request: PreparedRequest, stub: StubTransport?)
        async -> (Result<Response, APIError>, [CheckResult.Attempt]) {
        let (result, attempts) = await Polling.run(until, target: name) { () async throws(APIError) in
            let exchange = try await perform(request, stub: stub)
            if stub != nil, let unmet = Judge.failures(until.expect, validation: .none, response: exchange.response).first {
                throw .stopped("\(name): the sample does not meet until: \(unmet)")
            }
            return exchange
        }
        return (result.map(\.response), attempts)
    }

    private func perform(_ request: PreparedRequest, stub: StubTransport?) async throws(APIError) -> Exchange {
        if let stub { return try await Exchange.perform(request, validation: .none, transport: stub) }
        return try await Exchange.perform(request, validation: .none, transport: transport)
    }

    /// `Retry-After` as seconds from `now`: delta-seconds (`120`) or an HTTP-date; nil when unreadable.
    public static func retryAfter(_ value: String, now: Date) -> Double? {
        let text = value.trimmingSpaces()
        if let seconds = Double(text), seconds >= 0, seconds.isFinite { return seconds }
        guard let date = HTTPDate.parse(text) else { return nil }
        return max(0, date - now.timeIntervalSince1970)
    }

    static func kind(of error: APIError) -> CheckResult.FailureKind {
        switch error {
        case .network: return .network
        case .timedOut: return .timeout
        case .invalidInput, .output: return .invalid
        case .dependency: return .dependency
        case .stopped: return .expectation
        }
    }

    /// One line for an error (the first diagnostic of a target-file problem, with its place).
    public static func message(_ error: APIError) -> String {
        switch error {
        case .network(let failure): return "network error: \(failure)"
        case .timedOut(let s): return "timed out after \(Judge.milliseconds(s))"
        case .output(let m): return m
        case .dependency(let m): return m
        case .stopped(let m): return m
        case .invalidInput(let diagnostics):
            guard let d = diagnostics.first else { return "invalid target" }
            let place = d.file.map { f in d.mark.map { "\(f):\($0.line):\($0.column): " } ?? "\(f): " } ?? ""
            return place + d.message
        }
    }
}
