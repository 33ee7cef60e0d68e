import APIDiagnostics
import APITargets
import APIEndpoint
import Dispatch
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// An events sample (`sample: { events: … }`) answered as a stream: the head at once, then
/// each event after its delay, written to the stream sink as a live server's would be.
extension StubTransport {
    /// Each event on the wire (data expanded with the bindings) and the seconds before it.
    /// A `messages:` sample gives each message's text and a line break.
    package func eventChunks() throws(APIError) -> [(delay: Double, bytes: Data)] {
        if let messages = sample.messages {
            return try messages.map { m throws(APIError) in (m.delay, Data((try messageText(m) + "\n").utf8)) }
        }
        guard let events = sample.events else { return [] }
        var out: [(delay: Double, bytes: Data)] = []
        out.reserveCapacity(events.count)
        for event in events {
            var text: String?
            switch event.data {
            case .string(let t)?: text = try bindings.expand(t, in: "the event data", file: file, unresolved: .keep)
            case let value?: text = try value.expanded(with: bindings, in: "the event data", file: file).jsonText
            case nil: text = nil
            }
            out.append((event.delay, Data(event.wire(data: text).utf8)))
        }
        return out
    }

    /// The head, then the events one by one into `sink`, waiting each delay. The whole stream
    /// ends at the request's timeout; a gap longer than the request's `idle` ends it too.
    func streamEvents(_ request: PreparedRequest, to sink: any BodySink, transfer: Transfer,
                      start: DispatchTime) async throws(APIError) -> Response {
        let chunks = try eventChunks()
        var head = try response()
        head.body = Data()
        transfer.head(head)
        var elapsed = sample.delay
        for chunk in chunks {
            if let idle = request.idle, chunk.delay > idle {
                try await pause(idle)
                throw .idleTimeout(idle)
            }
            if elapsed + chunk.delay > request.timeout {
                try await pause(max(0, request.timeout - elapsed))
                throw .timedOut(request.timeout)
            }
            try await pause(chunk.delay)
            elapsed += chunk.delay
            if let hear = transfer.message, sample.messages != nil {
                // A conversation's listener hears each message (its line break dropped).
                hear(ReceivedMessage(binary: false, data: chunk.bytes.dropLast(), at: elapsed))
            } else {
                try sink.write(chunk.bytes)
            }
        }
        head.streamed = true
        head.messages = try receivedMessages()
        head.duration = Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
        return head
    }

    /// A `messages:` sample as a conversation's received messages, each at its delay's sum; nil for other samples.
    func receivedMessages() throws(APIError) -> [ReceivedMessage]? {
        guard let messages = sample.messages else { return nil }
        var at = sample.delay
        return try messages.map { m throws(APIError) in
            at += m.delay
            return ReceivedMessage(text: try messageText(m), at: at)
        }
    }

    /// A message's text: `text:` expanded, `json:` as JSON.
    package func messageText(_ m: Sample.Message) throws(APIError) -> String {
        if case .string(let t) = m.content { return try bindings.expand(t, in: "the message text", file: file, unresolved: .keep) }
        return try m.content.expanded(with: bindings, in: "the message JSON", file: file).jsonText
    }

    private func pause(_ seconds: Double) async throws(APIError) {
        guard seconds > 0 else { return }
        do { try await Task.sleep(nanoseconds: UInt64(seconds * 1e9)) } catch { throw .network(.other("the request was cancelled")) }
    }
}
