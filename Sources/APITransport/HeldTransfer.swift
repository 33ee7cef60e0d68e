import APISupport
import APIDiagnostics
import APITargets
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension Transfer {
    /// This transfer for an attempt that may be sent again: when `hold` says so of the response's
    /// head (a 5xx with retries left, an OAuth2 401), its head and streamed body do not reach this
    /// transfer's `head` and `stream` (they are dropped: that attempt's answer is not the one the
    /// caller shows). A body going to a file is not held: the caller resets the file instead.
    package func holding(when hold: @escaping @Sendable (Response) -> Bool) -> Transfer {
        guard stream != nil else {
            var out = self
            let head = self.head
            out.head = { response in if !hold(response) { head(response) } }
            return out
        }
        let gate = Gate(stream)
        let head = self.head
        var out = self
        out.stream = gate
        out.head = { response in
            let held = hold(response)
            gate.held.withLock { $0 = held }
            if !held { head(response) }
        }
        return out
    }
}

/// The stream of an attempt: passes bytes on unless its head was held.
private final class Gate: BodySink {
    let inner: (any BodySink)?
    let held = Locked(false)

    init(_ inner: (any BodySink)?) { self.inner = inner }

    func write(_ bytes: UnsafeRawBufferPointer) throws(APIError) {
        if held.current { return }
        try inner?.write(bytes)
    }
}
