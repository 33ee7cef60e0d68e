import Foundation
import NIOCore
import NIOPosix
import TestServers
import XCTest
@testable import APICore

/// What is particular to `KeepAliveTransport`'s own connections (the shared contract is in
/// TransportContractTests and TransferContractTests): kept connections, and one dropped by the server.
final class KeepAliveTransportTests: XCTestCase {
    /// Every request of a test on one loop, so each one after the first takes the kept connection.
    private let loop = MultiThreadedEventLoopGroup.singleton.next()

    private func get(_ url: String, method: String = "GET", on transport: any Transport) async throws -> Response {
        try await EventLoopExecutor.$current.withValue(loop) {
            try await transport.send(PreparedRequest(url: URL(string: url)!, method: method, headers: [], body: nil, timeout: 20))
        }
    }

    /// faultserver's /keep-then-drop answers and keeps the connection, then closes it unanswered at
    /// the next request: that request goes again on a new connection, once.
    func testAKeptConnectionTheServerDroppedIsReplacedOnce() async throws {
        let faults = try TestServer("faultserver.py", ["--lifetime", "120"])
        defer { faults.stop() }
        let transport = KeepAliveTransport()
        for n in 1...4 {
            let r = try await get(faults.url + "/keep-then-drop", on: transport)
            XCTAssertEqual(r.status, 200, "request \(n)")
            XCTAssertEqual(String(decoding: r.body, as: UTF8.self), "kept", "request \(n)")
        }
    }

    /// A new connection closed before any answer is a reset, as async-http-client reports it.
    func testANewConnectionClosedUnansweredIsAReset() async throws {
        let faults = try TestServer("faultserver.py", ["--lifetime", "120", "--raw", "close"])
        defer { faults.stop() }
        let url = faults.url + "/ok"
        var errors: [APIError] = []
        for transport in [KeepAliveTransport() as any Transport, NIOTransport()] {
            do {
                let r = try await get(url, on: transport)
                XCTFail("expected a reset, got \(r.status)")
            } catch let error as APIError {
                errors.append(error)
            }
        }
        let host = PreparedRequest(url: URL(string: url)!, method: "GET", headers: [], body: nil, timeout: 20).hostAndPort
        XCTAssertEqual(errors.first, .network(.reset(host: host)))
        XCTAssertEqual(errors.first, errors.last)
    }

    /// A HEAD response announces a length it does not send: the kept connection must not wait for
    /// those bytes, nor read them as the next response.
    func testHeadThenGetOnTheKeptConnection() async throws {
        let base = try localHTTPBin()
        let transport = KeepAliveTransport()
        let head = try await get(base + "/bytes/64", method: "HEAD", on: transport)
        XCTAssertEqual(head.status, 200)
        XCTAssertTrue(head.body.isEmpty)
        let got = try await get(base + "/get?n=2", on: transport)
        XCTAssertEqual(got.status, 200)
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: got.body) as? [String: Any])
        XCTAssertEqual((json["args"] as? [String: Any])?["n"] as? String, "2")
    }

    /// A body streamed to a sink (what `call` prints) goes over the keep-alive connections too: its
    /// head comes first, then each part is written on the sending task's loop as it comes (no hop to a
    /// thread pool), and the connection is kept for the next exchange.
    func testAStreamedBodyIsWrittenOnTheLoopAsItComes() async throws {
        let base = try localHTTPBin()
        let transport = KeepAliveTransport()
        let sink = LoopSink(loop)
        let heads = Locked(0)
        let transfer = Transfer(stream: sink, head: { response in
            XCTAssertTrue(response.body.isEmpty)
            XCTAssertEqual(sink.bytes % 100_000, 0, "the head before any of its body")
            heads.withLock { $0 += 1 }
        })
        for n in 1...2 {
            let r = try await EventLoopExecutor.$current.withValue(loop) {
                try await transport.send(PreparedRequest(url: URL(string: base + "/stream-bytes/100000?chunk_size=1000&seed=\(n)")!,
                                                         method: "GET", headers: [], body: nil, timeout: 20), transfer: transfer)
            }
            XCTAssertEqual(r.status, 200)
            XCTAssertTrue(r.streamed)
            XCTAssertTrue(r.body.isEmpty)
        }
        XCTAssertEqual(heads.current, 2)
        XCTAssertEqual(sink.bytes, 200_000)
        XCTAssertEqual(sink.offLoop, 0, "every part written on the sending task's loop")
    }
}

/// Counts the bytes written and the writes that did not run on `loop`.
private final class LoopSink: BodySink, @unchecked Sendable {
    private let loop: any EventLoop
    private let state = Locked<(bytes: Int, offLoop: Int)>((0, 0))

    init(_ loop: any EventLoop) { self.loop = loop }

    var bytes: Int { state.current.bytes }
    var offLoop: Int { state.current.offLoop }

    func write(_ bytes: UnsafeRawBufferPointer) throws(APIError) {
        let on = loop.inEventLoop
        state.withLock { $0.bytes += bytes.count; $0.offLoop += on ? 0 : 1 }
    }
}
