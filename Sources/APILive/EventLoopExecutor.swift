import APISupport
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import NIOCore
import NIOPosix
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One of NIO's event loops (the singleton group every `HTTPClient` of `ClientPool` runs on) as a
/// Swift task executor, for `load`'s virtual users in the closed model, `check`'s workers and a live
/// `call` (not for the open model's requests). A task started with it as its executor preference
/// (`run`) runs on that loop, and its requests prefer connections of the same loop (`NIOConnector`
/// asks async-http-client for `.delegate(on:)`): the request is written, its response read and the
/// waiting task resumed on one thread, mostly with no hop to Swift's cooperative pool and back. Work
/// on such a task must not block for long: the send path's file reads and writes run on NIO's thread pool
/// (a body streamed to stdout is written on the loop: only a call, alone on its loop, streams there).
package final class EventLoopExecutor: TaskExecutor, @unchecked Sendable {
    /// The loop of the task that is running, when it runs on one (`run`).
    @TaskLocal static var current: (any EventLoop)?

    package let loop: any EventLoop

    private init(_ loop: any EventLoop) {
        self.loop = loop
    }

    /// One executor per loop of the singleton group.
    private static let all = MultiThreadedEventLoopGroup.singleton.makeIterator().map { EventLoopExecutor($0) }
    private static let turn = Locked(0)
    /// False when APICLI_EXECUTOR=pool: every task stays on Swift's pool (to compare, or to rule it out).
    package static let enabled = getenv("APICLI_EXECUTOR").map { String(cString: $0) } != "pool"

    /// The loops in turn (round robin); nil when disabled.
    package static func next() -> EventLoopExecutor? {
        guard enabled, !all.isEmpty else { return nil }
        return all[turn.withLock { n in
            n = (n + 1) % all.count
            return n
        }]
    }

    /// A loop for a process that sends one exchange after another (a `call`): the singleton group is
    /// then made with one loop, not one per core (a thread each, started at its first use: 0.4 ms of
    /// a 7.6 ms call on 2 cores). Call it before anything uses the group (else the group keeps its
    /// size); `NIO_SINGLETON_GROUP_LOOP_COUNT` still wins; nil when disabled (APICLI_EXECUTOR=pool).
    package static func forOneCall() -> EventLoopExecutor? {
        guard enabled else { return nil }
        oneLoop.withLock { asked in
            guard !asked else { return }
            asked = true
            if getenv("NIO_SINGLETON_GROUP_LOOP_COUNT") == nil { NIOSingletons.groupLoopCountSuggestion = 1 }
        }
        return next()
    }

    /// Starts the loops now, on Swift's pool, for a command that sends after a long first step
    /// (`check` and `load` read their target files): their threads are made while the files are read, not after
    /// (making them took 1.2–8 ms of `check`'s 10,000 GETs, run after run on 2 cores, before its first
    /// request). Not for a `call` (`forOneCall` sets the group's size first).
    package static func startInBackground() {
        guard enabled else { return }
        Task.detached { _ = all.count }
    }

    /// Whether `forOneCall` has set the group's size (NIO allows it once).
    private static let oneLoop = Locked(false)

    /// `body` with this loop as the loop its requests prefer. Start the task with this executor as
    /// its preference (`group.addTask(executorPreference:)`) so that the task itself runs there.
    package func run<T>(_ body: () async -> T) async -> T {
        await Self.$current.withValue(loop) { await body() }
    }

    /// `body` on `executor`'s loop as the loop its requests prefer (`run`), or as it is when nil.
    package static func run<T>(on executor: EventLoopExecutor?, _ body: () async -> T) async -> T {
        guard let executor else { return await body() }
        return await executor.run(body)
    }

    /// `body` as a task running on `executor`'s loop (its executor preference, and `run`), or as it
    /// is when nil or already on a loop: what a one-off `call` does, so that its exchange goes over the
    /// keep-alive transport and the response is read, and its body written, on that one thread (`LiveTransport`).
    package nonisolated(nonsending) static func onLoop<T>(_ executor: EventLoopExecutor?, _ body: () async throws -> T) async throws -> T {
        guard let executor, current == nil else { return try await body() }
        let result: Result<T, any Error> = await withTaskExecutorPreference(executor) {
            await executor.run {
                do { return .success(try await body()) } catch { return .failure(error) }
            }
        }
        return try result.get()
    }

    package func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        loop.execute { job.runSynchronously(on: executor) }
    }
}
