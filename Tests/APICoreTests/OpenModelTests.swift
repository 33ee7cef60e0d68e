import Foundation
import XCTest
import NIOCore
@testable import APICore

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
