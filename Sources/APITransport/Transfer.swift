import APITargets
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// How one exchange moves its bytes: where the response body goes and who hears about progress.
package struct Transfer: Sendable {
    /// Set: the body is streamed into this file (a download); the response's `body` stays empty.
    package var destination: PartialFile?
    /// Set (and no destination): the body is streamed here as it comes (stdout), in flat memory.
    package var stream: (any BodySink)?
    /// Called as bytes go out and come in, from any thread.
    package var progress: @Sendable (TransferProgress) -> Void
    /// Called once with the final response's status and headers (no body), before its body moves.
    package var head: @Sendable (Response) -> Void
    /// A WebSocket conversation: called with each message as it comes (then nothing goes to
    /// `stream`); nil: each message's text and a line break go to `stream`.
    package var message: (@Sendable (ReceivedMessage) -> Void)? = nil
    /// A WebSocket conversation: the client closes as soon as this says the messages so far are
    /// enough (the Caller sets it from the target's websocket `expect:`).
    package var enough: (@Sendable ([ReceivedMessage]) -> Bool)? = nil

    package init(destination: PartialFile? = nil, stream: (any BodySink)? = nil,
                progress: @escaping @Sendable (TransferProgress) -> Void = { _ in },
                head: @escaping @Sendable (Response) -> Void = { _ in }) {
        self.destination = destination
        self.stream = stream
        self.progress = progress
        self.head = head
    }
}

/// Bytes moved so far in one direction.
package struct TransferProgress: Sendable, Equatable {
    package enum Direction: Sendable, Equatable {
        /// The request body.
        case upload
        /// The response body.
        case download
    }

    package var direction: Direction
    package var bytes: Int64
    /// When known: the request body's length, the response's Content-Length.
    package var total: Int64?

    package init(_ direction: Direction, bytes: Int64, total: Int64?) {
        self.direction = direction
        self.bytes = bytes
        self.total = total
    }
}
