import APILive

/// Where a one-off `call` runs: live, as a task on one of NIO's event loops, one exchange after
/// another there over the keep-alive transport (as check's workers do), with no hop to Swift's
/// pool; offline (a stub, a dry run) as it is. The executable asks here, so it needs no engine.
package enum OneCall {
    package nonisolated(nonsending) static func run<T>(live: Bool, _ body: () async throws -> T) async throws -> T {
        try await EventLoopExecutor.onLoop(live ? EventLoopExecutor.forOneCall() : nil, body)
    }
}
