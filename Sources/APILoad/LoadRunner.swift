import APISupport
import APIDiagnostics
import APITargets
import APIEndpoint
import APITransport
import APILive
import APISend
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Runs a `LoadPlan`: every request through a `Caller` (`makeCaller`: one per virtual user in
/// the closed model, one for the run in the open model), each counted by the `recorder`.
/// Latency is from the moment a request was due: in the open model its scheduled start (so a
/// server that stalls is not measured only by the few requests that got through: no coordinated
/// omission), in the closed model when the user sent it.
package final class LoadRunner: Sendable {
    package let plan: LoadPlan
    package let recorder: LoadRecorder
    let makeCaller: @Sendable () -> Caller
    let stopped = Locked<String?>(nil)
    private let started = Locked<Int>(0)
    let order: [Int]
    /// Every item's variants (its rows' targets, or itself) numbered one after another: item
    /// `i`'s row `r` is variant `first[i] + r`, of item `itemOf[v]`, counted under `names[i]`.
    let first: [Int]
    let itemOf: [Int]
    let rows: LoadPlan.RowPicker
    let names: [String]
    private let deadline: Double?

    /// The event loops a run's requests go out on, started now: call it before the run's target
    /// files are read, so that the loops' threads are made meanwhile (as `CheckRunner.startLoops`).
    package static func startLoops() {
        EventLoopExecutor.startInBackground()
    }

    /// `start`: monotonic seconds when the run begins (the `--start-at` moment, already waited for).
    package init(plan: LoadPlan, start: Double, template: LoadResult, watch: LoadWatch? = nil,
                 makeCaller: @escaping @Sendable () -> Caller) {
        self.plan = plan
        self.makeCaller = makeCaller
        order = plan.order
        var first: [Int] = []
        var itemOf: [Int] = []
        for (i, item) in plan.items.enumerated() {
            first.append(itemOf.count)
            itemOf += repeatElement(i, count: max(item.rows.count, 1))
        }
        (self.first, self.itemOf) = (first, itemOf)
        rows = LoadPlan.RowPicker(order: order, items: plan.items.count, rowOrder: plan.rowOrder)
        deadline = plan.duration.map { start + $0 }
        names = plan.items.map(\.target.qualifiedName)
        recorder = LoadRecorder(names: names, start: start, template: template, watch: watch)
    }

    /// The variant request `k` of the run sends: its item's (`order`), the row `rowOrder` picks.
    func variant(_ k: Int) -> Int {
        let i = order[k % order.count]
        return first[i] + rows.row(k, rows: plan.items[i].rows.count)
    }

    /// The most rows of a target whose requests a user (or the open model's run) keeps once built.
    static let keptRows = 64

    /// Variant `v`'s target (a row's, or the item's own).
    func target(_ v: Int) -> Target {
        let i = itemOf[v]
        return plan.items[i].rows.isEmpty ? plan.items[i].target : plan.items[i].rows[v - first[i]]
    }

    /// Starts nothing new; requests in flight finish (or are cancelled with the run's task).
    package func stop(_ reason: String) { stopped.withLock { if $0 == nil { $0 = reason } } }

    package var stopReason: String? { stopped.current }

    /// `--abort-on-fail`: once a request came back, judges `thresholds` on what was measured so far
    /// and stops the run at the first that fails.
    package func stopIfFailing(_ thresholds: [LoadThreshold], requests: UInt64) {
        guard !thresholds.isEmpty, requests > 0 else { return }
        let judged = LoadVerdict.judge(thresholds, recorder.snapshot())
        if let failed = judged.first(where: { !$0.passed }) {
            stop("threshold failed (--abort-on-fail): \(failed.threshold.text), measured \(failed.measuredText)")
        }
    }

    /// The run; throws when the open model cannot build a target's request (its needs failed).
    package func run() async throws(APIError) -> LoadResult {
        switch plan.model {
        case let .closed(users, think):
            await withDiscardingTaskGroup { group in
                for _ in 0..<users {
                    // Each user on one of NIO's event loops, with its connections (no thread hop a request).
                    let loop = EventLoopExecutor.next()
                    group.addTask(executorPreference: loop) { await EventLoopExecutor.run(on: loop) { await self.user(think: think) } }
                }
            }
        case let .open(schedule, maxInFlight):
            try await open(schedule, maxInFlight: maxInFlight)
        }
        var result = recorder.snapshot()
        result.stopped = stopReason
        return result
    }

    /// The number of the request that may start now (0-based, over the whole run: it picks the
    /// target, so `--requests N` sends the same targets however the users interleave), or nil.
    /// `now`: the clock as the user read it last (the end of its previous request), when it has.
    private func claim(now: Double? = nil) -> Int? {
        if stopped.current != nil || Task.isCancelled { return nil }
        if let deadline, (now ?? monotonicSeconds()) >= deadline { return nil }
        return started.withLock { n -> Int? in
            if let limit = plan.requests, n >= limit { return nil }
            n += 1
            return n - 1
        }
    }

    private func user(think: Double) async {
        let caller = makeCaller()
        // Per item, built once: its request (not the plan's item copied each request; the call in a
        // box, so that sending it copies none of its parts). A row's request is kept too when its
        // item has at most `keptRows` rows; beyond, it is built each time (rows may be many, and
        // every user would keep every one).
        var prepared = [Ready?](repeating: nil, count: plan.items.count)
        var preparedRows: [Int: Ready] = [:]
        var batch = LoadRecorder.Batch()
        defer { batch.flush(to: recorder) }
        // The user's requests one after another: one counter for all of them.
        let body = BodyCounter()
        let transfer = Transfer(stream: body)
        // When the user's last request ended (with no think time, the next claim's clock: one
        // reading of it less a request).
        var ended: Double?
        while let k = claim(now: ended) {
            let v = variant(k)
            let i = itemOf[v]
            let ready: Ready
            let rowCount = plan.items[i].rows.count
            if let built = rowCount <= 1 ? prepared[i] : preparedRows[v] {
                ready = built
            } else {
                do {
                    ready = Ready(try await caller.prepare(target(v), in: plan.items[i].service))
                    if rowCount <= 1 { prepared[i] = ready } else if rowCount <= Self.keptRows { preparedRows[v] = ready }
                } catch {
                    let now = monotonicSeconds()
                    if !cancelled(error) { recorder.record(names[i], due: now, end: now, error: LoadOutcome.errorKind(error), bytes: 0) }
                    try? await Task.sleep(nanoseconds: UInt64(max(think, 0.1) * 1e9))
                    ended = nil
                    continue
                }
            }
            let due = monotonicSeconds()
            body.reset()
            recorder.watch?.sending()
            let sent = await caller.send(ready.call, transfer: transfer)
            recorder.watch?.sent()
            let end = monotonicSeconds()
            if let entry = entry(names[i], sent, bytes: body.bytes, due: due, end: end, lag: nil) { batch.add(entry, to: recorder) }
            if think > 0 {
                try? await Task.sleep(nanoseconds: UInt64(think * 1e9))
                ended = nil
            } else {
                ended = end
            }
        }
    }

    private final class Ready: Sendable {
        let call: PreparedCall
        init(_ call: PreparedCall) { self.call = call }
    }

    func record(_ name: String, _ sent: Sent, bytes: Int, due: Double, lag: Double?) {
        if let entry = entry(name, sent, bytes: bytes, due: due, end: monotonicSeconds(), lag: lag) { recorder.record(entry) }
    }

    /// What the recorder counts of `sent` (`bytes`: its body's, counted as it came); nil for a
    /// request the run's stop cut short.
    private func entry(_ name: String, _ sent: Sent, bytes: Int, due: Double, end: Double, lag: Double?) -> LoadRecorder.Entry? {
        if case .failure(let e) = sent.last, cancelled(e) { return nil }
        let (counted, status) = if case .success(let r) = sent.last { (bytes, r.status) } else { (0, 0) }
        return LoadRecorder.Entry(name: name, due: due, end: end, error: LoadOutcome.errorKind(sent), bytes: counted, lag: lag, status: status)
    }

    /// A request that failed once the run was stopped (Ctrl-C cancels the requests in flight):
    /// not counted, the stop cut it short.
    func cancelled(_ error: APIError) -> Bool {
        stopped.current != nil || Task.isCancelled
    }
}

/// Where a load run's response bodies go: their bytes are counted and none is kept (a run held
/// every body in memory, up to 64 MiB a request in flight: 512 MB at 8 users against endless
/// bodies). Only `until:` (judged on each answer) and `needs:` (captured from) hold a body, up to
/// `load --max-body`. Writes come one at a time (`BodySink`); `bytes` is read once the exchange is
/// done, and `reset` before the next.
final class BodyCounter: BodySink, @unchecked Sendable {
    private(set) var bytes = 0

    func write(_ raw: UnsafeRawBufferPointer) {
        bytes += raw.count
    }

    func reset() { bytes = 0 }
}
