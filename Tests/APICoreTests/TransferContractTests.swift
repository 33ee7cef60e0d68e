import Foundation
import TestServers
import XCTest
@testable import APISupport
@testable import APIDiagnostics
@testable import APITargets
@testable import APIEndpoint
@testable import APITransport
@testable import APILive
@testable import APIImport

/// The transfer contract every connector of the engine keeps (async-http-client, the keep-alive
/// connections, h2c against Tests/Servers/h2c-httpbin.py, URLSession in the trait build, and the
/// live choice among them), against the local httpbin and Tests/Servers/faultserver.py: a file PUT,
/// a multipart POST, a download into a `PartialFile` with progress, a body streamed to a sink as it
/// comes (not after the end), `maxBody` on a held body (not on a streamed one), and the inflation
/// bound on a decompression bomb with and without a Content-Length.
final class TransferContractTests: XCTestCase {
    var base = ""
    var dir: URL!
    let bytes = Data((0..<70_000).map { UInt8(truncatingIfNeeded: $0 &* 13) })

    override func setUpWithError() throws {
        base = try localHTTPBin()
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("apicli-tc-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        try bytes.write(to: dir.appendingPathComponent("data.bin"))
    }

    override func tearDownWithError() throws {
        if let dir { try? FileManager.default.removeItem(at: dir) }
    }

    /// Each connector, with the httpbin it speaks to (h2c: the one over h2c); `http1Only`: not h2c
    /// (for a server that speaks HTTP/1.1 only).
    private func transports(http1Only: Bool = false) throws -> [(String, any Transport, String)] {
        var all: [(String, any Transport, String)] = LiveTransport.Connection.allCases.filter { !http1Only || $0 != .h2c }.map { c in
            ("\(c)", LiveTransport(only: c), base)
        }
        if let at = all.firstIndex(where: { $0.0 == "h2c" }) { all[at].2 = try H2CHTTPBin.url() }
        all.append(("live", LiveTransport(), base))
        return all
    }

    private func request(_ method: String, _ path: String, _ body: PreparedRequest.Body?, headers: [HeaderField] = [],
                         on base: String? = nil) -> PreparedRequest {
        PreparedRequest(url: URL(string: (base ?? self.base) + path)!, method: method, headers: headers, body: body, timeout: 10)
    }

    private func json(_ r: Response) throws -> [String: Any] {
        try XCTUnwrap(JSONSerialization.jsonObject(with: r.body) as? [String: Any])
    }

    /// Progress events, recorded from any thread.
    private final class Events: @unchecked Sendable {
        private let lock = NSLock()
        private var list: [TransferProgress] = []
        func add(_ p: TransferProgress) { lock.lock(); list.append(p); lock.unlock() }
        var all: [TransferProgress] { lock.lock(); defer { lock.unlock() }; return list }
    }

    func testAFileIsPutByteForByte() async throws {
        let path = dir.appendingPathComponent("data.bin").path
        for (name, transport, base) in try transports() {
            let r = try await transport.send(request("PUT", "/put", .file(path),
                                                     headers: [HeaderField("Content-Type", "application/octet-stream")], on: base))
            XCTAssertEqual(r.status, 200, name)
            XCTAssertEqual(try json(r)["data"] as? String, "data:application/octet-stream;base64," + bytes.base64EncodedString(), name)
        }
    }

    func testMultipartArrivesAsFilesAndForm() async throws {
        let body = MultipartBody(parts: [.init(name: "f", content: .file(dir.appendingPathComponent("data.bin").path)),
                                         .init(name: "v", content: .text("value"))])
        for (name, transport, base) in try transports() {
            let r = try await transport.send(request("POST", "/post", .multipart(body),
                                                     headers: [HeaderField("Content-Type", body.contentType)], on: base))
            let echo = try json(r)
            XCTAssertEqual(echo["files"] as? [String: String],
                           ["f": "data:application/octet-stream;base64," + bytes.base64EncodedString()], name)
            XCTAssertEqual(echo["form"] as? [String: String], ["v": "value"], name)
        }
    }

    func testStreamedUploadsReportProgressUpToTheLength() async throws {
        let events = Events()
        let transport = LiveTransport(only: .nio, tls: TLSOptions())
        _ = try await transport.send(request("PUT", "/put", .file(dir.appendingPathComponent("data.bin").path)),
                                     transfer: Transfer(progress: events.add))
        let uploads = events.all.filter { $0.direction == .upload }
        XCTAssertEqual(uploads.first, TransferProgress(.upload, bytes: 0, total: 70_000))
        XCTAssertEqual(uploads.last, TransferProgress(.upload, bytes: 70_000, total: 70_000))
        XCTAssertEqual(uploads.map(\.bytes), uploads.map(\.bytes).sorted())
    }

    func testDownloadsGoIntoTheDestinationWithProgress() async throws {
        for (name, transport, base) in try transports() {
            let events = Events()
            let file = try PartialFile.create(for: dir.appendingPathComponent("range-\(name)").path)
            let r = try await transport.send(request("GET", "/range/50000", nil, on: base),
                                             transfer: Transfer(destination: file, progress: events.add))
            XCTAssertEqual(r.status, 200, name)
            XCTAssertEqual(r.body, Data(), name)
            XCTAssertTrue(r.saved === file, name)
            try file.commit()
            let alphabet = Array("abcdefghijklmnopqrstuvwxyz".utf8)
            XCTAssertEqual(try Data(contentsOf: dir.appendingPathComponent("range-\(name)")),
                           Data((0..<50_000).map { alphabet[$0 % 26] }), name)
            XCTAssertEqual(events.all.last, TransferProgress(.download, bytes: 50_000, total: 50_000), name)
        }
    }

    func testAMissingUploadFileIsBadInputBeforeAnythingIsSent() async throws {
        for (name, transport, base) in try transports() {
            do {
                _ = try await transport.send(request("PUT", "/put", .file(dir.appendingPathComponent("gone").path), on: base))
                XCTFail("expected an error from \(name)")
            } catch {
                XCTAssertEqual(error, .invalid(Diagnostic(file: nil, mark: nil,
                    message: "cannot read \(dir.appendingPathComponent("gone").path): No such file or directory")), name)
            }
        }
    }

    /// Body parts as a sink receives them, with when they came.
    private final class Sink: BodySink, @unchecked Sendable {
        private let lock = NSLock()
        private var parts: [(at: Double, bytes: Data)] = []
        private let start = DispatchTime.now()
        func write(_ bytes: UnsafeRawBufferPointer) throws(APIError) {
            let at = Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
            lock.lock(); parts.append((at, Data(bytes))); lock.unlock()
        }
        var all: [(at: Double, bytes: Data)] { lock.lock(); defer { lock.unlock() }; return parts }
    }

    func testABodyReachesTheStreamAsItComesNotAtTheEnd() async throws {
        for (name, transport, base) in try transports() {
            let sink = Sink()
            let started = DispatchTime.now()
            // httpbin sends 4 bytes over 2 s, one every half second
            let r = try await transport.send(request("GET", "/drip?duration=2&numbytes=4&code=200&delay=0", nil, on: base),
                                             transfer: Transfer(stream: sink))
            let took = Double(DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds) / 1e9
            XCTAssertEqual(r.status, 200, name)
            XCTAssertEqual(r.body, Data(), name)
            XCTAssertTrue(r.streamed, name)
            XCTAssertEqual(sink.all.reduce(Data()) { $0 + $1.bytes }, Data("****".utf8), name)
            let first = try XCTUnwrap(sink.all.first?.at, name)
            XCTAssertLessThan(first, took - 0.7, "\(name): the first byte reached the sink only at the end (\(first) of \(took) s)")
        }
    }

    func testAHeldBodyStopsAtMaxBodyAndAStreamedOneDoesNot() async throws {
        for (name, transport, base) in try transports() {
            var held = request("GET", "/bytes/20000", nil, on: base)
            held.maxBody = 10_000
            do {
                let r = try await transport.send(held)
                XCTFail("\(name): expected the 10,000-byte bound, got \(r.status) with \(r.body.count) bytes")
            } catch {
                XCTAssertEqual(error, .network(.bodyTooLarge(host: held.hostAndPort, limit: 10_000)), name)
            }
            let sink = Sink()
            let r = try await transport.send(held, transfer: Transfer(stream: sink))
            XCTAssertEqual(r.status, 200, name)
            XCTAssertEqual(sink.all.reduce(0) { $0 + $1.bytes.count }, 20_000, name)
        }
    }

    func testADecompressionBombStopsAtTheInflationRatio() async throws {
        let faults = try TestServer("faultserver.py", ["--lifetime", "60"])
        defer { faults.stop() }
        for path in ["/gzip-bomb", "/gzip-bomb-chunked"] {
            for (name, transport, _) in try transports(http1Only: true) {
                for transfer in [Transfer(), Transfer(stream: Sink())] {
                    var bomb = PreparedRequest(url: URL(string: faults.url + path)!, method: "GET", headers: [], body: nil, timeout: 20)
                    bomb.maxBody = 8 << 20
                    // URLSession cannot see a chunked body's size on the wire (libcurl decodes first):
                    // there a compressed body without a length is bounded by maxBody, streamed or held.
                    let unsized = path.hasSuffix("chunked") && urlSessionServes(transport, bomb, transfer)
                    let expected: APIError = unsized ? .network(.bodyTooLarge(host: bomb.hostAndPort, limit: 8 << 20))
                        : .network(.inflatesTooMuch(host: bomb.hostAndPort, ratio: ClientPool.inflationRatio))
                    do {
                        let r = try await transport.send(bomb, transfer: transfer)
                        XCTFail("\(name) \(path): expected the inflation bound, got \(r.status)")
                    } catch {
                        XCTAssertEqual(error, expected, "\(name) \(path) streamed: \(transfer.stream != nil)")
                    }
                }
            }
        }
    }

    /// Whether URLSession answers this exchange on `transport` (never in the default Linux build).
    private func urlSessionServes(_ transport: any Transport, _ request: PreparedRequest, _ transfer: Transfer) -> Bool {
        (transport as? LiveTransport)?.usesURLSession(request, transfer) ?? false
    }
}
