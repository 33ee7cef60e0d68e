@testable import APILoad
#if canImport(Glibc)
import Glibc
#endif
import XCTest

/// `load --metrics`' listener bounds its scrapers (`LoadMetricsServer.Limits`): a real listener on
/// loopback, raw sockets as the clients.
final class LoadMetricsServerTests: XCTestCase {
    private func server(_ limits: LoadMetricsServer.Limits) async throws -> LoadMetricsServer {
        let metrics = LoadMetrics(names: ["s.a"], open: false, info: [])
        return try await LoadMetricsServer.start(host: "127.0.0.1", port: 0, metrics: metrics,
                                                 watch: LoadWatch(metrics: metrics, seconds: false), limits: limits)
    }

    /// The 17th connection is closed unanswered while 16 are open; once one closes, a new one is served.
    func testMoreScrapersThanTheCapAreClosed() async throws {
        let s = try await server(.init())
        let held = try (0..<16).map { _ in try RawClient(port: s.port) }
        XCTAssertTrue(try held[0].scrape().hasPrefix("HTTP/1.1 200 OK"))  // the 16 are being served
        let extra = try RawClient(port: s.port)
        let answer = try extra.scrape()
        XCTAssertEqual(answer, "", "the 17th connection was served: \(answer.prefix(80))")
        XCTAssertTrue(extra.closed)
        held[1].close()
        var served = ""
        for _ in 0..<50 where !served.hasPrefix("HTTP/1.1 200 OK") {  // the slot frees once the server sees the close
            try await Task.sleep(nanoseconds: 20_000_000)
            served = try RawClient(port: s.port).scrape()
        }
        XCTAssertTrue(served.hasPrefix("HTTP/1.1 200 OK"), served)
        XCTAssertTrue(try held[15].scrape().contains("apicli_load_"))
        await s.stop()
    }

    /// A connection that sends nothing is closed after the idle time (0.3 s here, 10 s by default).
    func testAnIdleConnectionIsClosed() async throws {
        let s = try await server(.init(idleSeconds: 0.3))
        let idle = try RawClient(port: s.port)
        let start = Date()
        XCTAssertEqual(try idle.read(timeout: 5), "")
        XCTAssertTrue(idle.closed, "an idle connection was not closed")
        XCTAssertLessThan(Date().timeIntervalSince(start), 3)
        XCTAssertTrue(try RawClient(port: s.port).scrape().hasPrefix("HTTP/1.1 200 OK"))  // a scrape is answered
        await s.stop()
    }

    /// A connection that sends a head larger than 8 KiB is closed before the head ends (the HTTP
    /// decoder alone would wait for up to 80 KiB of it); a scrape of normal size is answered.
    func testAnOversizedRequestHeadIsClosed() async throws {
        let s = try await server(.init())
        let big = try RawClient(port: s.port)
        try big.send("GET /metrics HTTP/1.1\r\nHost: x\r\nX-Big: " + String(repeating: "a", count: 9000))
        XCTAssertEqual(try big.read(timeout: 3), "")
        XCTAssertTrue(big.closed, "a 9 KB request head was held open")
        let fine = try RawClient(port: s.port)
        try fine.send("GET /metrics HTTP/1.1\r\nHost: x\r\nX-Fine: " + String(repeating: "a", count: 7000) + "\r\n\r\n")
        XCTAssertTrue(try fine.read(timeout: 3).hasPrefix("HTTP/1.1 200 OK"))
        await s.stop()
    }
}

/// A blocking TCP client on 127.0.0.1 for the tests above.
private final class RawClient {
    let fd: Int32
    private(set) var closed = false

    init(port: Int) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        let ok = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
        guard ok else { Glibc.close(fd); throw POSIXError(.ECONNREFUSED) }
    }

    deinit { Glibc.close(fd) }

    func close() { shutdown(fd, Int32(SHUT_RDWR)) }

    func send(_ text: String) throws {
        let bytes = Array(text.utf8)
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard n > 0 else { return }  // closed by the server: `read` tells
            sent += n
        }
    }

    /// What arrives within `timeout` seconds (until the answer's body is complete or the server
    /// closes); `closed` is set when it closed.
    func read(timeout: Double) throws -> String {
        var got = [UInt8]()
        let until = Date().addingTimeInterval(timeout)
        var buffer = [UInt8](repeating: 0, count: 65536)
        while Date() < until {
            var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&p, 1, Int32(max(1, until.timeIntervalSinceNow * 1000))) > 0 else { break }
            let n = recv(fd, &buffer, buffer.count, 0)
            if n <= 0 { closed = true; break }
            got += buffer[0..<n]
            if Self.complete(got) { break }
        }
        return String(decoding: got, as: UTF8.self)
    }

    /// GET /metrics and its answer ("" when the server closed without one).
    func scrape() throws -> String {
        try send("GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n")
        return try read(timeout: 3)
    }

    private static func complete(_ bytes: [UInt8]) -> Bool {
        let text = String(decoding: bytes, as: UTF8.self)
        guard let end = text.range(of: "\r\n\r\n"),
              let line = text[..<end.lowerBound].split(separator: "\r\n").first(where: { $0.lowercased().hasPrefix("content-length:") }),
              let length = Int(line.split(separator: ":")[1].trimmingCharacters(in: .whitespaces)) else { return false }
        return text.utf8.count - text.utf8.distance(from: text.startIndex, to: end.upperBound) >= length
    }
}
