import Foundation
import XCTest
import NIOCore
import NIOPosix
@testable import APISupport
@testable import APIDiagnostics
@testable import APITransport
@testable import APILive

/// `load`'s users and `check`'s items run on NIO's event loops (no hop to Swift's pool and back per
/// request), and the bound of an exchange that runs in the calling task (`Deadline.bound`) ends it
/// at the deadline with the timeout error, or passes its own error and value through.
final class EventLoopExecutorTests: XCTestCase {
    func testATaskWithALoopAsPreferenceRunsOnItBeforeAndAfterSuspending() async throws {
        guard let executor = EventLoopExecutor.next() else { throw XCTSkip("APICLI_EXECUTOR=pool") }
        let seen = await withTaskGroup(of: [Bool].self) { group in
            group.addTask(executorPreference: executor) {
                await EventLoopExecutor.run(on: executor) {
                    var seen = [executor.loop.inEventLoop, EventLoopExecutor.current === executor.loop]
                    await Task.yield()
                    seen.append(executor.loop.inEventLoop)
                    try? await Task.sleep(nanoseconds: 20_000_000)
                    seen.append(executor.loop.inEventLoop)
                    // A future completed elsewhere resumes the task on its loop again.
                    let other = MultiThreadedEventLoopGroup.singleton.next()
                    _ = try? await other.scheduleTask(in: .milliseconds(5)) { 1 }.futureResult.get()
                    seen.append(executor.loop.inEventLoop)
                    return seen
                }
            }
            return await group.next() ?? []
        }
        XCTAssertEqual(seen, [true, true, true, true, true])
    }

    func testTheLoopsAreTakenInTurn() throws {
        let count = Array(MultiThreadedEventLoopGroup.singleton.makeIterator()).count
        guard let first = EventLoopExecutor.next() else { throw XCTSkip("APICLI_EXECUTOR=pool") }
        let loops = (0..<count).compactMap { _ in EventLoopExecutor.next()?.loop }
        XCTAssertEqual(Set(loops.map { ObjectIdentifier($0) }).count, count, "every loop once in \(count) turns")
        XCTAssertTrue(loops.last === first.loop)
    }

    func testBoundEndsTheWorkAtTheDeadlineWithTheTimeoutError() async {
        let cancelled = Locked(false)
        let start = Date()
        do {
            _ = try await Deadline.bound(0.3, onTimeout: { cancelled.set(true) }) { () async throws -> Int in
                // Work that ends only when cancelled, as a cancelled async-http-client request does.
                while !cancelled.current { try await Task.sleep(nanoseconds: 10_000_000) }
                throw CancellationError()
            }
            XCTFail("expected a timeout")
        } catch {
            XCTAssertEqual(error as? APIError, .timedOut(0.3))
        }
        XCTAssertLessThan(Date().timeIntervalSince(start), 10)
    }

    func testBoundPassesTheWorksValueAndErrorThrough() async throws {
        let value = try await Deadline.bound(30, onTimeout: {}) { () async throws -> Int in 7 }
        XCTAssertEqual(value, 7)
        do {
            _ = try await Deadline.bound(30, onTimeout: {}) { () async throws -> Int in throw APIError.timedOut(99) }
            XCTFail("expected the work's error")
        } catch {
            XCTAssertEqual(error as? APIError, .timedOut(99))
        }
    }
}
