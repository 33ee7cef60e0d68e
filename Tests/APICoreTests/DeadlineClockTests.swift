import Foundation
import XCTest
@testable import APISupport
@testable import APITransport

/// The one timer of every exchange's deadline: a due deadline fires, a removed one never does and
/// lets go of what its action holds at once (a timer pending until the timeout held each finished
/// exchange's task and continuation for 60 s: gigabytes in a load run).
final class DeadlineClockTests: XCTestCase {
    final class Held: Sendable {}

    func testARemovedDeadlineIsReleasedAtOnceAndNeverFires() {
        let clock = DeadlineClock.shared
        let fired = Locked<[String]>([])
        weak var weakHeld: Held?
        let id: Int = {
            let held = Held()
            weakHeld = held
            return clock.add(after: 0.3) { _ = held; fired.withLock { $0.append("removed") } }
        }()
        XCTAssertNotNil(weakHeld, "held while pending")
        _ = clock.add(after: 0.05) { fired.withLock { $0.append("due") } }
        clock.remove(id)
        XCTAssertNil(weakHeld, "released when removed, not when its time comes")
        Thread.sleep(forTimeInterval: 0.5)  // past both times
        XCTAssertEqual(fired.current, ["due"])
    }

    /// A slot freed and taken again by another deadline: the old id finds nothing there (removing
    /// it twice neither says true nor removes the new deadline, which still fires).
    func testAnOldIdDoesNotRemoveTheDeadlineThatReusedItsSlot() {
        let clock = DeadlineClock.shared
        let fired = Locked(false)
        let old = clock.add(after: 30) {}
        XCTAssertTrue(clock.remove(old))
        let new = clock.add(after: 0.05) { fired.set(true) }
        XCTAssertEqual(new & 0xFFFF_FFFF, old & 0xFFFF_FFFF, "the slot is reused")
        XCTAssertFalse(clock.remove(old))
        let end = Date().addingTimeInterval(5)
        while !fired.current && Date() < end { Thread.sleep(forTimeInterval: 0.02) }
        XCTAssertTrue(fired.current)
        XCTAssertFalse(clock.remove(new), "fired: no longer waiting")
    }

    func testDeadlinesFireInTheirOrderWhateverTheOrderAdded() {
        let clock = DeadlineClock.shared
        let order = Locked<[Int]>([])
        for (n, after) in [(3, 0.15), (1, 0.05), (2, 0.1)] {
            _ = clock.add(after: after) { order.withLock { $0.append(n) } }
        }
        let end = Date().addingTimeInterval(5)
        while order.current.count < 3 && Date() < end { Thread.sleep(forTimeInterval: 0.02) }
        XCTAssertEqual(order.current, [1, 2, 3])
    }
}
