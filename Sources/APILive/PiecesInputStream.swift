#if !os(Linux) || URLSessionTransport
import APIDiagnostics
import APIEndpoint
import APITransport
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A multipart body as an `InputStream` for `httpBodyStream`, read from disk as libcurl asks.
/// A read failure ends the stream; `failure` says why.
package final class PiecesInputStream: InputStream {
    private let reader: BodyReader
    private let lock = NSLock()
    private var pending = Data()
    private var ended = false
    private var _failure: APIError?

    package init(_ body: SizedBody) {
        reader = BodyReader(body)
        super.init(data: Data())
    }

    package var failure: APIError? {
        lock.lock()
        defer { lock.unlock() }
        return _failure
    }

    package override func open() {}
    package override func close() {}
    package override var hasBytesAvailable: Bool {
        lock.lock()
        defer { lock.unlock() }
        return !ended
    }
    package override var streamStatus: Stream.Status {
        lock.lock()
        defer { lock.unlock() }
        return _failure != nil ? .error : ended ? .atEnd : .open
    }
    package override var streamError: Error? { failure }

    package override func read(_ buffer: UnsafeMutablePointer<UInt8>, maxLength len: Int) -> Int {
        lock.lock()
        defer { lock.unlock() }
        if pending.isEmpty, !ended {
            do {
                if let chunk = try reader.next() { pending = chunk } else { ended = true }
            } catch {
                _failure = error
                ended = true
                return -1
            }
        }
        let n = min(len, pending.count)
        pending.copyBytes(to: buffer, count: n)
        pending = pending.dropFirst(n)
        if pending.isEmpty { pending = Data() }
        return n
    }

    package override func getBuffer(_ buffer: UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>,
                            length len: UnsafeMutablePointer<Int>) -> Bool { false }
}
#endif
