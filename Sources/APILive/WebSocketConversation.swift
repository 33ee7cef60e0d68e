import APISupport
import APIDiagnostics
import APITargets
import APIEndpoint
import APITransport
import APIVerdict
import Dispatch
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import NIOCore
import NIOWebSocket
import WSClient
import Logging

/// One WebSocket conversation's client side: the task's messages sent in order while what the
/// server sends is received; the client closes after `close.after` messages, or once everything
/// is sent and nothing has come for `close.wait` seconds. What came is kept for the response.
final class Conversation: Sendable {
    private struct State {
        var messages: [ReceivedMessage] = []
        var bytes: Int64 = 0
        /// When the last message came or the last one went (uptime seconds).
        var lastActivity: Double
        var sent = false
        var done = false
        /// The client sent (or began) the close: a conversation apicli ended.
        var closing = false
        var failure: APIError?
    }

    let request: WebSocketRequest
    let transfer: Transfer
    let maxBytes: Int64
    let host: String
    /// What the WebSocket library refused (read from its trace).
    let witness = FrameWitness()
    private let start = Conversation.now()
    private let state: Locked<State>

    package init(_ request: WebSocketRequest, transfer: Transfer, maxBytes: Int64, host: String) {
        self.request = request
        self.transfer = transfer
        self.maxBytes = maxBytes
        self.host = host
        state = Locked(State(lastActivity: start))
    }

    static func now() -> Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }

    /// A failure met inside the conversation (a message too large, a file not read): it wins over
    /// the close it caused.
    var failure: APIError? { state.current.failure }

    /// The library's handler: the connection is open.
    func run(_ inbound: WebSocketInboundStream, _ outbound: WebSocketOutboundWriter) async throws {
        transfer.head(Response(status: 101, headers: [], body: Data(), duration: Self.now() - start))
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await self.sendAll(outbound) }
            group.addTask { await self.closeWhenQuiet(outbound) }
            do {
                try await receive(inbound, outbound)
            } catch {
                state.withLock { $0.done = true }
                group.cancelAll()
                throw error
            }
            state.withLock { $0.done = true }
            group.cancelAll()
        }
    }

    /// What broke the protocol, once the library's `run` has returned with the server's close frame
    /// (`closed`, nil when none came): a close code RFC 6455 §7.4 does not allow, a frame the library
    /// refused, or the connection ending without a close frame the client did not ask for.
    func violation(closed: WebSocketCloseFrame?) -> APIError? {
        let s = state.current
        if let refused = witness.refused {
            return .network(.protocolViolation(host: host, reason: "sent \(refused) (RFC 6455 §5.2); apicli ended the conversation (close code 1002)"))
        }
        if let closed {
            let code = Int(UInt16(webSocketErrorCode: closed.closeCode))
            guard Self.allowedCloseCodes.contains(where: { $0.contains(code) }) else {
                return .network(.protocolViolation(host: host, reason: "closed the WebSocket conversation with the code \(code), which RFC 6455 §7.4 does not allow"))
            }
            return nil
        }
        guard !s.closing, s.failure == nil else { return nil }
        // NIO's frame decoder closes the connection on a frame it refuses (sending close 1002 or
        // 1009) before its error can reach the library, which then sees what a dropped connection
        // looks like: the two cannot be told apart here.
        return .network(.protocolViolation(host: host, reason: "ended the WebSocket conversation without a close frame: it closed the connection "
            + "(an abnormal closure, RFC 6455 §7.1.5), or sent a frame RFC 6455 forbids (a fragmented control frame, a control frame "
            + "over 125 bytes, or one over the 1 MiB frame limit, such as a length of 2^62), on which apicli closed it (close code 1002 or 1009)"))
    }

    /// The close codes a server may send (RFC 6455 §7.4.1 and IANA's registry; 1004-1006 and 1015 never go on the wire).
    static let allowedCloseCodes = [1000...1003, 1007...1014, 3000...4999]

    private func sendAll(_ outbound: WebSocketOutboundWriter) async throws {
        for message in request.send {
            switch message {
            case .text(let text):
                try await outbound.write(.text(text))
            case .binary(let path):
                guard let data = FileManager.default.contents(atPath: path) else {
                    fail(.stopped("cannot read the binary message file \(path)"))
                    state.withLock { $0.closing = true }
                    try await outbound.close(.normalClosure, reason: nil)
                    return
                }
                try await outbound.writeBinaryMessage(ByteBuffer(bytes: data))
            }
            let now = Self.now()
            state.withLock { $0.lastActivity = now }
        }
        let now = Self.now()
        state.withLock { s in
            s.sent = true
            s.lastActivity = now
        }
    }

    /// Once everything is sent, closes after `close.wait` seconds without a message.
    private func closeWhenQuiet(_ outbound: WebSocketOutboundWriter) async {
        let wait = request.close.wait
        while !Task.isCancelled {
            let (quiet, done) = state.withLock { s in (s.sent && Self.now() - s.lastActivity >= wait, s.done) }
            if done { return }
            if quiet {
                try? await closeFrame(outbound)
                return
            }
            try? await Task.sleep(nanoseconds: 20_000_000)
        }
    }

    private func receive(_ inbound: WebSocketInboundStream, _ outbound: WebSocketOutboundWriter) async throws {
        let limit = Int(min(maxBytes, Int64(Int32.max)))
        for try await message in inbound.messages(maxSize: max(1, limit)) {
            let now = Self.now()
            let received: ReceivedMessage
            switch message {
            case .text(let text): received = ReceivedMessage(text: text, at: now - start)
            case .binary(var buffer): received = ReceivedMessage(binary: true, data: Data(buffer.readBytes(length: buffer.readableBytes) ?? []), at: now - start)
            }
            let (count, tooLarge, tooMany, enough) = state.withLock { s -> (Int, Bool, Bool, Bool) in
                s.bytes += Int64(received.data.count)
                guard s.bytes <= maxBytes else { return (s.messages.count, true, false, false) }
                guard s.messages.count < WebSocketTask.maxMessages else { return (s.messages.count, false, true, false) }
                s.messages.append(received)
                s.lastActivity = now
                return (s.messages.count, false, false, transfer.enough?(s.messages) ?? false)
            }
            // Each limit named as it is: the bytes received (--max-body), or the messages kept.
            if tooLarge || tooMany {
                fail(.network(tooLarge ? .bodyTooLarge(host: host, limit: maxBytes) : .tooManyMessages(host: host, limit: WebSocketTask.maxMessages)))
                state.withLock { $0.closing = true }
                try await outbound.close(tooLarge ? .messageTooLarge : .policyViolation, reason: nil)
                return
            }
            deliver(received)
            if enough || request.close.after.map({ count >= $0 }) == true {
                try await closeFrame(outbound)
                return
            }
        }
    }

    /// Into the file being saved (`-o`), else to `Transfer.message`, else the text and a line
    /// break to `Transfer.stream`.
    private func deliver(_ message: ReceivedMessage) {
        transfer.progress(TransferProgress(.download, bytes: state.current.bytes, total: nil))
        if transfer.destination == nil, let hear = transfer.message {
            hear(message)
        } else if let sink = transfer.destination ?? transfer.stream {
            do { try sink.write(Data((message.text + "\n").utf8)) } catch { fail(error) }
        }
    }

    private func closeFrame(_ outbound: WebSocketOutboundWriter) async throws {
        state.withLock { $0.closing = true }
        try await outbound.close(.init(codeNumber: request.close.code), reason: request.close.reason.isEmpty ? nil : request.close.reason)
    }

    private func fail(_ error: APIError) {
        state.withLock { s in if s.failure == nil { s.failure = error } }
    }

    /// The conversation as an answer: `101`, the messages, and (no stream) their text as the body.
    func response(closeCode: Int?) -> Response {
        let messages = state.current.messages
        let streamed = transfer.destination == nil && (transfer.message != nil || transfer.stream != nil)
        var out = Response(status: 101, headers: [], body: streamed || transfer.destination != nil ? Data() : ReceivedMessage.body(messages),
                           duration: Self.now() - start)
        out.streamed = streamed
        out.saved = transfer.destination
        out.messages = messages
        out.closeCode = closeCode
        return out
    }
}

/// The WebSocket library's trace, read for what it does not otherwise tell: a frame it refused (a
/// reserved opcode, a reserved bit no extension agreed, text that is not UTF-8), which it answers
/// with close 1002 and does not report. Nothing else is kept or printed.
final class FrameWitness: Sendable {
    private let seen = Locked<(refused: String?, reservedBits: String?)>((nil, nil))

    /// What the library refused, in words, if it did.
    var refused: String? { seen.current.refused }

    /// A `LogHandler` for the library's `Logger` (at trace level) that feeds this witness.
    var handler: some LogHandler { Handler(witness: self) }

    fileprivate func note(_ message: String) {
        if message.hasPrefix("Received WebSocketFrame(") {
            // The last frame's reserved bits (RSV1 is permessage-deflate's when agreed), should the library refuse it.
            let rsv = ["RSV1", "RSV2", "RSV3"].filter { message.contains(",\($0)") || message.contains(" \($0)") }
            seen.withLock { $0.reservedBits = rsv.isEmpty ? nil : rsv.joined(separator: ", ") }
        } else if message == "Received reserved opcode" {
            seen.withLock { $0.refused = $0.refused ?? "a frame with a reserved opcode" }
        } else if message.hasPrefix("Error: close(") {
            seen.withLock { s in
                guard s.refused == nil else { return }
                if message.contains("dataInconsistentWithMessage") {
                    s.refused = "a text message that is not UTF-8"
                } else if message.contains("protocolError") {
                    s.refused = s.reservedBits.map { "a frame with \($0) set, which no extension agreed" } ?? "a frame RFC 6455 forbids"
                }
            }
        }
    }

    private struct Handler: LogHandler {
        let witness: FrameWitness
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace
        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { nil }
            set {}
        }
        func log(event: LogEvent) { witness.note(event.message.description) }
    }
}
