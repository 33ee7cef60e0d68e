import APISupport
import APIDiagnostics
import APIEndpoint
import APITransport
import APILive
import APISend
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import NIOCore

/// The open model: requests start on the `RateSchedule` whatever the server does, each its own
/// task, at most `maxInFlight` at once. The lag of a start is from its scheduled time to when its
/// task begins to run (a busy machine runs it late), and its latency counts from the scheduled
/// time too (no coordinated omission).
extension LoadRunner {
    /// Where the scheduler and the requests run: `timer` (the default) the scheduler sleeps on an
    /// event loop's timer and the requests run on Swift's pool; `pool` the scheduler sleeps with
    /// Task.sleep (a Dispatch timer: its manager thread wakes, then a pool thread); `loops` the
    /// requests run on the loops too. APICLI_OPEN_SCHEDULER picks one, for A/B measurements
    /// (bench/ab-load.sh; the figures are in docs/dev/benchmarks.md): `timer` took less CPU than
    /// `pool` with the same lag.
    enum OpenPlacement: String {
        case pool, timer, loops
        static let current = OpenPlacement(rawValue: ProcessInfo.processInfo.environment["APICLI_OPEN_SCHEDULER"] ?? "") ?? .timer
    }

    func open(_ schedule: RateSchedule, maxInFlight: Int) async throws(APIError) {
        let caller = makeCaller()
        // One per item (with rows, its first row's: built now, so a request that cannot be built
        // stops the run before it starts; the other rows are built as they are sent).
        var calls: [PreparedCall] = []
        for (i, item) in plan.items.enumerated() { calls.append(try await caller.prepare(target(first[i]), in: item.service)) }
        // The rows of a target with at most `keptRows`, built now too; more are built as they are sent.
        var rowCalls: [Int: PreparedCall] = [:]
        for (i, item) in plan.items.enumerated() where (2...Self.keptRows).contains(item.rows.count) {
            for v in first[i]..<(first[i] + item.rows.count) { rowCalls[v] = try await caller.prepare(target(v), in: item.service) }
        }
        let placement = OpenPlacement.current
        let home = placement == .pool ? nil : EventLoopExecutor.next()
        let gates = placement == .loops ? calls.map { _ in nil } : SendGate.gates(for: calls, caller.workspace.settings.connection)
        await withTaskExecutorPreference(home) {
            await self.startOnSchedule(schedule, calls: Calls(items: calls, rows: rowCalls), gates: gates, caller: caller, maxInFlight: maxInFlight,
                                       timer: home?.loop, placement: placement)
        }
    }

    /// The open model's requests, built before it starts: each item's, and the rows of the items
    /// with at most `keptRows` rows, by variant.
    struct Calls: Sendable {
        var items: [PreparedCall]
        var rows: [Int: PreparedCall]
    }

    private func startOnSchedule(_ schedule: RateSchedule, calls: Calls, gates: [SendGate?], caller: Caller,
                                 maxInFlight: Int, timer: (any EventLoop)?, placement: OpenPlacement) async {
        let start = recorder.start
        let end = plan.duration ?? .infinity
        let slots = InFlightSlots(limit: maxInFlight)
        var k = 0
        await withDiscardingTaskGroup { group in
            while stopped.current == nil, !Task.isCancelled {
                if let limit = plan.requests, k >= limit { break }
                guard let at = schedule.time(of: k), at < end else { break }
                let due = start + at
                if due - monotonicSeconds() > Self.early { await Self.sleep(until: due, on: timer) }
                await slots.acquire()
                if stopped.current != nil || Task.isCancelled {
                    slots.release()
                    break
                }
                let v = variant(k)
                let i = itemOf[v]
                k += 1
                recorder.scheduled(UInt64(k))
                let loop: (any TaskExecutor)? = switch placement {
                case .pool: nil
                case .timer: globalConcurrentExecutor
                case .loops: EventLoopExecutor.next()
                }
                guard let gate = gates[i] else {
                    group.addTask(executorPreference: loop) {
                        // The request starts when its task runs (a busy machine runs it late): the lag
                        // is measured here. A start a little early (not worth a sleep) counts from when
                        // it started; a late one from its schedule.
                        let now = monotonicSeconds()
                        await self.send(v, calls, caller: caller, on: loop as? EventLoopExecutor, due: min(due, now), lag: max(now - due, 0))
                        slots.release()
                    }
                    continue
                }
                // With its origin's gate full, it waits there (its lag is now's: it started, as one
                // waiting for a connection in the transport's queue did, and the wait counts in its
                // latency); a task whose request is done sends the next one waiting.
                let now = monotonicSeconds()
                guard gate.submit(SendGate.Pending(item: v, from: min(due, now), lag: max(now - due, 0))) else { continue }
                group.addTask(executorPreference: loop) {
                    let now = monotonicSeconds()
                    var request: SendGate.Pending? = SendGate.Pending(item: v, from: min(due, now), lag: max(now - due, 0))
                    while let r = request {
                        if !Task.isCancelled {  // Ctrl-C: the ones waiting are not sent
                            await self.send(r.item, calls, caller: caller, on: loop as? EventLoopExecutor, due: r.from, lag: r.lag)
                        }
                        slots.release()
                        request = gate.next()
                    }
                }
            }
        }
    }

    /// One request, sent and counted. Not inlined into the request's task: its frame (the result,
    /// the error) is there only while a request is with the transport. Its `--timeout` counts from
    /// `due`, its scheduled start: what it waited at its origin's gate (or started late) it has
    /// less, and one whose time ran out while it waited is a timeout at its deadline, not sent (a
    /// silent server made a 1 s run with `--timeout 1` last 13 s, with 12 s latencies).
    @inline(never)
    private func send(_ v: Int, _ calls: Calls, caller: Caller, on loop: EventLoopExecutor?, due: Double, lag: Double) async {
        let i = itemOf[v]
        let name = names[i]
        var call = plan.items[i].rows.count > 1 ? calls.rows[v] ?? calls.items[i] : calls.items[i]
        if plan.items[i].rows.count > Self.keptRows {  // built as it is sent: rows may be many, none is kept
            do {
                call = try await caller.prepare(target(v), in: plan.items[i].service)
            } catch {
                if !cancelled(error) { recorder.record(name, due: due, end: monotonicSeconds(), error: LoadOutcome.errorKind(error), bytes: 0, lag: lag) }
                return
            }
        }
        let waited = monotonicSeconds() - due
        if waited > Self.early {
            let timeout = call.request.timeout
            guard waited < timeout else {
                recorder.record(LoadRecorder.Entry(name: name, due: due, end: due + timeout,
                                                   error: LoadOutcome.errorKind(APIError.timedOut(timeout)), bytes: 0, lag: lag,
                                                   status: 0))
                return
            }
            call.request.timeout = timeout - waited
        }
        let body = BodyCounter()
        recorder.watch?.sending()
        let sent = await EventLoopExecutor.run(on: loop) { await caller.send(call, transfer: Transfer(stream: body)) }
        recorder.watch?.sent()
        record(name, sent, bytes: body.bytes, due: due, lag: lag)
    }

    /// How early a request may start rather than sleep until it is due (seconds).
    static let early = 0.0002

    /// Until monotonic `t` (or the task's cancellation): on `loop`'s timer (timerfd on Linux: to
    /// the microsecond, and the scheduler wakes on its own loop with no hop through another
    /// thread), else Task.sleep with no tolerance (it may otherwise end a millisecond or more late).
    static func sleep(until t: Double, on loop: (any EventLoop)?) async {
        guard let loop else {
            let wait = t - monotonicSeconds()
            if wait > 0 { try? await Task.sleep(for: .nanoseconds(Int64(wait * 1e9)), tolerance: .zero) }
            return
        }
        let timer = loop.scheduleTask(deadline: .uptimeNanoseconds(UInt64(max(t, 0) * 1e9))) {}
        await withTaskCancellationHandler {
            _ = try? await timer.futureResult.get()
        } onCancel: {
            timer.cancel()
        }
    }
}
