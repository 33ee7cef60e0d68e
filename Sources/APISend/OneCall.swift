import APILive
import Dispatch
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where a one-off `call` runs: live, as a task on one of NIO's event loops, one exchange after
/// another there over the keep-alive transport (as check's workers do), with no hop to Swift's
/// pool; offline (a stub, a dry run) as it is. The executable asks here, so it needs no engine.
package enum OneCall {
    package nonisolated(nonsending) static func run<T>(live: Bool, _ body: () async throws -> T) async throws -> T {
        try await EventLoopExecutor.onLoop(live ? EventLoopExecutor.forOneCall() : nil, body)
    }

    /// Where the process's one task runs (`start`).
    package enum Place {
        /// The calling thread (the main one): a stub or a dry run, which need no other thread.
        case thisThread
        /// One of NIO's loops (its only one: `EventLoopExecutor.forOneCall`): a live call.
        case loop
        /// Swift's pool: everything else.
        case pool
    }

    /// `body`, which ends the process, as the process's one task, started at `place` with no hop on
    /// the way: never returns. An `async` main would start on Swift's pool first, which starts
    /// three threads for it; a stub call then needs none besides the main one, a live call only its
    /// loop's.
    package static func start(_ place: Place, _ body: sending @escaping () async -> Never) -> Never {
        switch place {
        case .thisThread:
            let loop = ThreadLoop()
            Task(executorPreference: loop) { await body() }
            loop.run()
        case .loop:
            if let executor = EventLoopExecutor.forOneCall() {
                Task(executorPreference: executor) {
                    _ = try? await EventLoopExecutor.onLoop(executor) { await body() }
                }
                dispatchMain()
            }
            fallthrough
        case .pool:
            Task { await body() }
            dispatchMain()
        }
    }
}

/// The calling thread as a task executor: `run` takes the jobs enqueued to it, one after another,
/// and never returns (`OneCall.start`). The signals the executable handles (interrupt, terminate,
/// hang-up) are not blocked on it: their handler (`SignalExit`) runs on this thread, the only one.
final class ThreadLoop: TaskExecutor, @unchecked Sendable {
    private let lock = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let ready = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    /// Guarded by `lock`.
    private var jobs: [UnownedJob] = []

    init() {
        pthread_mutex_init(lock, nil)
        pthread_cond_init(ready, nil)
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        pthread_mutex_lock(lock)
        jobs.append(job)
        pthread_cond_signal(ready)
        pthread_mutex_unlock(lock)
    }

    func run() -> Never {
        let executor = asUnownedTaskExecutor()
        var taken: [UnownedJob] = []
        while true {
            pthread_mutex_lock(lock)
            while jobs.isEmpty { pthread_cond_wait(ready, lock) }
            swap(&taken, &jobs)
            pthread_mutex_unlock(lock)
            for job in taken { job.runSynchronously(on: executor) }
            taken.removeAll(keepingCapacity: true)
        }
    }
}
