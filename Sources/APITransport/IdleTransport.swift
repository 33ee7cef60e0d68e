import APIDiagnostics
import APITargets
import APIEndpoint
import Dispatch
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The idle timeout of a stream (`stream: { idle: }`), as a transport decorator: the exchange
/// ends with `APIError.idleTimeout` when no byte of the response has come for `request.idle`
/// seconds (counted from the send, then from each head or body chunk), apart from the total
/// deadline the inner transport keeps. Without `idle` it is the inner transport as it is.
package struct IdleTransport: Transport {
    let inner: any Transport

    package init(_ inner: any Transport) { self.inner = inner }

    nonisolated(nonsending) package func send(_ request: PreparedRequest) async throws(APIError) -> Response {
        try await send(request, transfer: Transfer())
    }

    nonisolated(nonsending) package func send(_ request: PreparedRequest, transfer: Transfer) async throws(APIError) -> Response {
        guard let idle = request.idle else { return try await inner.send(request, transfer: transfer) }
        let watch = IdleWatch(idle)
        var watched = transfer
        let (progress, head) = (transfer.progress, transfer.head)
        watched.progress = { p in
            if p.direction == .download { watch.touch() }
            progress(p)
        }
        watched.head = { response in
            watch.touch()
            head(response)
        }
        if let stream = transfer.stream { watched.stream = TouchingSink(stream, watch) }
        let (inner, prepared) = (self.inner, watched)
        do {
            return try await watch.race { () async throws -> Response in try await inner.send(request, transfer: prepared) }
        } catch let error as APIError {
            throw error
        } catch {
            throw .network(.other("\(error)"))
        }
    }
}

/// A deadline pushed back by every `touch`: when it passes, the work is cancelled and the
/// exchange fails with `idleTimeout`.
final class IdleWatch: Sendable {
    let seconds: Double
    private let timer = Deadline.makeTimer()

    package init(_ seconds: Double) { self.seconds = seconds }

    func touch() {
        timer.current.schedule(deadline: .now() + seconds)
    }

    func race<T: Sendable>(_ work: @escaping @Sendable () async throws -> T) async throws -> T {
        try await Deadline.race(seconds, failure: .idleTimeout(seconds), timer: timer, work)
    }
}

/// Passes bytes on and tells the watch they came.
private final class TouchingSink: BodySink {
    let inner: any BodySink
    let watch: IdleWatch

    init(_ inner: any BodySink, _ watch: IdleWatch) { (self.inner, self.watch) = (inner, watch) }

    func write(_ bytes: UnsafeRawBufferPointer) throws(APIError) {
        watch.touch()
        try inner.write(bytes)
    }
}
