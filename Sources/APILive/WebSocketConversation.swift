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
        var failure: APIError?
    }

    let request: WebSocketRequest
    let transfer: Transfer
    let maxBytes: Int64
    let host: String
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

    private func sendAll(_ outbound: WebSocketOutboundWriter) async throws {
        for message in request.send {
            switch message {
            case .text(let text):
                try await outbound.write(.text(text))
            case .binary(let path):
                guard let data = FileManager.default.contents(atPath: path) else {
                    fail(.stopped("cannot read the binary message file \(path)"))
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
            let (count, fits, enough) = state.withLock { s -> (Int, Bool, Bool) in
                s.bytes += Int64(received.data.count)
                guard s.bytes <= maxBytes, s.messages.count < WebSocketTask.maxMessages else { return (s.messages.count, false, false) }
                s.messages.append(received)
                s.lastActivity = now
                return (s.messages.count, true, transfer.enough?(s.messages) ?? false)
            }
            guard fits else {
                fail(.network(.bodyTooLarge(host: host, limit: maxBytes)))
                try await outbound.close(.messageTooLarge, reason: nil)
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
