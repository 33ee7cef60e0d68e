import APISupport
import APIDiagnostics
import APITargets
import APIVerdict
import APILive
import APISend
/// Runs check items concurrently — at most `jobs` in flight — and hands each result to `emit` in
/// item order as soon as it and every result before it are done. Every item is sent through the
/// run's `Caller` (retries, `until:`, OAuth2, needs), as `call` sends one target.
package struct CheckRunner: Sendable {
    /// The event loops a run's workers run on, started now: call it before the run's target files
    /// are read, so that the loops' threads are made meanwhile (`EventLoopExecutor.startInBackground`).
    package static func startLoops() {
        EventLoopExecutor.startInBackground()
    }

    package struct Options: Sendable {
        package var jobs: Int
        /// After the first failure, start nothing new; what did not start is skipped.
        package var failFast: Bool

        package init(jobs: Int = 8, failFast: Bool = false) {
            self.jobs = jobs
            self.failFast = failFast
        }
    }

    package var options: Options
    package var caller: Caller

    package init(options: Options, caller: Caller) {
        self.options = options
        self.caller = caller
    }

    /// Runs items made already (`CheckItems`' other `run`, with nothing to say before the first result).
    package func run(_ items: [CheckItem], emit: (Int, CheckResult) -> Void) async -> [CheckResult] {
        await run(CheckItems(items), planned: {}, emit: emit)
    }

    /// `jobs` workers, each on one of NIO's event loops (`EventLoopExecutor`: its exchanges stay on
    /// that thread, with that loop's connections), take the next item in turn until none is left;
    /// their results come back in batches (`ResultInbox`), so the run's task wakes once for many
    /// results, not once per item (a task per item hopped between Swift's pool and the loops).
    /// Items are made as the run goes (`CheckItems`): the planning task makes them all, in order,
    /// on Swift's pool, and a worker waits for the item it takes. `planned` is called once every
    /// item is made and before the first `emit`: what must be said before any result (a target
    /// that cannot be built) is said there, as when every item was made before the run.
    /// `emitted` is called after each batch of `emit`s (results that came back together): where
    /// the caller writes what it collected for them, one write for many lines.
    package func run(_ items: CheckItems, planned: () -> Void, emit: (Int, CheckResult) -> Void,
                    emitted: () -> Void = {}) async -> [CheckResult] {
        let count = items.count
        var results = [CheckResult?](repeating: nil, count: count)
        var next = 0
        let claimed = Locked(0)
        let stopped = Locked(false)
        let inbox = ResultInbox()
        let failFast = options.failFast
        let jobs = min(max(options.jobs, 1), count)
        let pool = { () async -> Void in
            await withDiscardingTaskGroup { group in
                group.addTask {
                    ShortLivedHeap.adviseThisThread()
                    items.makeAll()
                    inbox.put(.planned, loop: nil)
                }
                for _ in 0..<jobs {
                    let loop = EventLoopExecutor.next()
                    group.addTask(executorPreference: loop) {
                        await EventLoopExecutor.run(on: loop) {
                            ShortLivedHeap.adviseThisThread()  // a no-op unless the command asked (`check`)
                            while let i = Self.claim(claimed, stopped, count: count) {
                                let result = await self.execute(await items.item(i))
                                if failFast, result.outcome == .failed { stopped.set(true) }
                                inbox.put(.result(i, result), loop: loop?.loop)
                            }
                        }
                    }
                }
            }
            inbox.finish()
        }
        async let workers: Void = pool()
        var isPlanned = false
        while true {
            let events = await inbox.take()
            if events.isEmpty { break }
            for event in events {
                switch event {
                case .planned:
                    planned()
                    isPlanned = true
                case let .result(i, result):
                    results[i] = result
                }
            }
            guard isPlanned else { continue }
            while next < count, let r = results[next] { emit(next, r); next += 1 }
            emitted()
        }
        await workers
        for i in claimed.current..<count {
            let item = items[i]
            results[i] = CheckResult(name: item.name, service: item.service, target: item.target, sample: item.sample,
                                     outcome: .skipped, skipReason: "not run: --fail-fast stopped at the first failure")
        }
        while next < count, let r = results[next] { emit(next, r); next += 1 }
        emitted()
        return results.compactMap { $0 }
    }

    /// The next item to run, or nil when all are taken or `--fail-fast` stopped the run.
    private static func claim(_ claimed: Locked<Int>, _ stopped: Locked<Bool>, count: Int) -> Int? {
        if stopped.current { return nil }
        return claimed.withLock { n -> Int? in
            guard n < count else { return nil }
            n += 1
            return n - 1
        }
    }

    /// Sends one item (with its retries) and judges the last response.
    package func execute(_ item: CheckItem) async -> CheckResult {
        // A result is made where it is decided (a sent item's by `judged`: none made first and dropped).
        switch item.work {
        case .skip(let reason):
            return Self.skipped(item, reason)
        case .deferred(let make):
            var next = item
            next.work = await make()
            return await execute(next)
        case .fail(let error):
            return Self.failed(item, error)
        case let .send(call, answer, expectFailure):
            if let reason = call.skipReason { return Self.skipped(item, reason) }
            let sent = await caller.send(call, answer: answer)
            return judged(sent, item, validation: call.validation, expect: call.expect, expectFailure: expectFailure)
        case .shared(let run):
            switch await run() {
            case .success(let run):
                if let reason = run.call.skipReason { return Self.skipped(item, reason) }
                return judged(run.sent, item, validation: run.call.validation, expect: run.call.expect,
                              expectFailure: false)
            case .failure(let error):
                return Self.failed(item, error)
            }
        }
    }

    private static func blank(_ item: CheckItem) -> CheckResult {
        CheckResult(name: item.name, service: item.service, target: item.target, sample: item.sample, outcome: .skipped)
    }

    private static func skipped(_ item: CheckItem, _ reason: String) -> CheckResult {
        var result = blank(item)
        result.skipReason = reason
        return result
    }

    private static func failed(_ item: CheckItem, _ error: APIError) -> CheckResult {
        var result = blank(item)
        (result.outcome, result.kind, result.messages) = (.failed, error.kind, [error.summary])
        return result
    }

    /// The item's result: its last response judged by `expect:` (else `validate:`), with every attempt.
    private func judged(_ sent: Sent, _ item: CheckItem, validation: Validation, expect: Expectations?,
                        expectFailure: Bool) -> CheckResult {
        var result = Self.blank(item)
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
    package static func isFlaky(_ r: CheckResult) -> Bool {
        r.outcome == .passed && r.attempts.dropLast().contains { ($0.status ?? 500) >= 500 }
    }
}
