import Foundation
import XCTest
import NIOCore
@testable import APISupport
@testable import APIEndpoint
@testable import APITransport
@testable import APILive
@testable import APISend
@testable import APILoad

/// The open model's scheduler parts: `--max-in-flight` slots that make the scheduler wait (not
/// poll) for a request to finish, and its sleep on an event loop's timer, which never ends before
/// the due time and ends at once when the run is cancelled.
final class OpenModelTests: XCTestCase {
    func testASlotIsWaitedForUntilARequestGivesItsBack() async throws {
        let slots = InFlightSlots(limit: 2)
        await slots.acquire()
        await slots.acquire()
        XCTAssertEqual(slots.taken, 2)
        let got = Locked(false)
        let waiter = Task {
            await slots.acquire()
            got.set(true)
        }
        try await Task.sleep(for: .milliseconds(200))
        XCTAssertFalse(got.current, "a third request started with two slots taken")
        slots.release()  // handed over to the waiter: still two taken
        let deadline = Date().addingTimeInterval(10)
        while !got.current, Date() < deadline { try await Task.sleep(for: .milliseconds(10)) }
        XCTAssertTrue(got.current, "the waiter never got the slot given back")
        await waiter.value
        XCTAssertEqual(slots.taken, 2)
        slots.release()
        slots.release()
        XCTAssertEqual(slots.taken, 0)
        await slots.acquire()  // free again: no wait
        XCTAssertEqual(slots.taken, 1)
    }

    /// Many tasks may wait (the open model's requests at a `SendGate`): each gets a slot given
    /// back, first come first served, none is lost.
    func testManyWaitersGetSlotsInTheOrderTheyCame() async throws {
        let slots = InFlightSlots(limit: 1)
        await slots.acquire()
        let order = Locked<[Int]>([])
        var waiters: [Task<Void, Never>] = []
        for i in 0..<5 {
            waiters.append(Task {
                await slots.acquire()
                order.withLock { $0.append(i) }
            })
            // The next one only once this one waits, so that the order they came in is known.
            let deadline = Date().addingTimeInterval(30)
            while slots.waiting < i + 1, Date() < deadline { try await Task.sleep(for: .milliseconds(5)) }
            XCTAssertEqual(slots.waiting, i + 1)
        }
        for n in 1...5 {
            slots.release()  // handed to the first waiter: still one taken
            let deadline = Date().addingTimeInterval(30)
            while order.current.count < n, Date() < deadline { try await Task.sleep(for: .milliseconds(5)) }
            XCTAssertEqual(order.current.count, n, "a waiter never got the slot given back")
            XCTAssertEqual(slots.taken, 1)
        }
        for w in waiters { await w.value }
        XCTAssertEqual(order.current, [0, 1, 2, 3, 4])
        XCTAssertEqual(slots.waiting, 0)
        slots.release()
        XCTAssertEqual(slots.taken, 0)
    }

    /// Which requests wait at a per-origin `SendGate`: those async-http-client sends over HTTP/1.1
    /// (one request a connection), by origin; not HTTP/2 (TLS may multiplex), h2c or sockets.
    func testOnlyHTTP1OriginsAreGated() {
        func origin(_ url: String, http1Only: Bool = false, socket: String? = nil,
                    _ change: (inout PreparedRequest) -> Void = { _ in }) -> String? {
            var r = PreparedRequest(url: URL(string: url)!, method: "GET", headers: [], body: nil, timeout: 5)
            change(&r)
            return SendGate.origin(r, ConnectionOptions(unixSocket: socket, http1Only: http1Only))
        }
        XCTAssertEqual(origin("http://127.0.0.1:8080/a?x=1"), "http://127.0.0.1:8080")
        XCTAssertEqual(origin("HTTP://Example.test/b"), "http://example.test:80")
        XCTAssertNil(origin("https://example.test/"))
        XCTAssertEqual(origin("https://example.test/", http1Only: true), "https://example.test:443")
        XCTAssertNil(origin("http://127.0.0.1/") { $0.http2PriorKnowledge = true })
        XCTAssertNil(origin("http://127.0.0.1/") { $0.socket = "/tmp/s" })
        XCTAssertNil(origin("http://127.0.0.1/", socket: "/tmp/s"))
    }

    /// A gate lets `limit` requests be sent at once, each in a task of its own; the others wait
    /// as records, first come first served, and a task whose request is done takes the next one:
    /// no task (and none of its send path's memory) for a request that cannot be on the wire yet.
    func testAGateRunsUpToItsLimitAndQueuesTheRestInOrder() {
        let gate = SendGate(limit: 2)
        func pending(_ i: Int) -> SendGate.Pending { SendGate.Pending(item: i, from: Double(i), lag: 0) }
        XCTAssertTrue(gate.submit(pending(0)))
        XCTAssertTrue(gate.submit(pending(1)))
        for i in 2..<200 { XCTAssertFalse(gate.submit(pending(i)), "request \(i) got a task with the gate full") }
        XCTAssertEqual(gate.running, 2)
        XCTAssertEqual(gate.waiting, 198)
        var sent: [Int] = []
        // the two running tasks each send the next one waiting when theirs is done, in turn
        var tasks: [Int?] = [0, 1]
        while tasks.contains(where: { $0 != nil }) {
            for t in tasks.indices {
                guard let item = tasks[t] else { continue }
                sent.append(item)
                tasks[t] = gate.next()?.item
            }
        }
        XCTAssertEqual(sent, Array(0..<200))
        XCTAssertEqual(gate.running, 0)
        XCTAssertEqual(gate.waiting, 0)
        XCTAssertTrue(gate.submit(pending(200)), "a free gate runs at once")
        XCTAssertEqual(gate.running, 1)
    }

    func testTheLoopTimerNeverWakesEarlyAndACancelledSleepEndsAtOnce() async throws {
        guard let executor = EventLoopExecutor.next() else { throw XCTSkip("APICLI_EXECUTOR=pool") }
        for ms in [1.0, 20, 50] {
            let due = monotonicSeconds() + ms / 1000
            await LoadRunner.sleep(until: due, on: executor.loop)
            let woke = monotonicSeconds()
            XCTAssertGreaterThanOrEqual(woke, due, "woke \((due - woke) * 1e6) µs before a \(ms) ms sleep was due")
            XCTAssertLessThan(woke - due, 5, "a \(ms) ms sleep took \(woke - due) s more")
        }
        let start = monotonicSeconds()
        let sleeper = Task { await LoadRunner.sleep(until: monotonicSeconds() + 600, on: executor.loop) }
        try await Task.sleep(for: .milliseconds(50))
        sleeper.cancel()
        await sleeper.value
        XCTAssertLessThan(monotonicSeconds() - start, 30, "a cancelled run's scheduler slept on")
    }
}
