import Foundation
import XCTest
@testable import APICore

/// Streamed bodies through both live transports against the local httpbin: a file PUT, a
/// multipart POST, a download into a `PartialFile` with progress. (`LiveTransport` sends streamed
/// transfers through async-http-client; URLSession must still send them correctly when used alone.)
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

    private func transports() throws -> [(String, any Transport)] {
        var all: [(String, any Transport)] = [("NIO", NIOTransport()), ("Live", LiveTransport())]
        #if !os(Linux) || URLSessionTransport
        all.append(("URLSession", URLSessionTransport()))
        #endif
        return all
    }

    private func request(_ method: String, _ path: String, _ body: PreparedRequest.Body?, headers: [HeaderField] = []) -> PreparedRequest {
        PreparedRequest(url: URL(string: base + path)!, method: method, headers: headers, body: body, timeout: 10)
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
        for (name, transport) in try transports() {
            let r = try await transport.send(request("PUT", "/put", .file(path),
                                                     headers: [HeaderField("Content-Type", "application/octet-stream")]))
            XCTAssertEqual(r.status, 200, name)
            XCTAssertEqual(try json(r)["data"] as? String, "data:application/octet-stream;base64," + bytes.base64EncodedString(), name)
        }
    }

    func testMultipartArrivesAsFilesAndForm() async throws {
        let body = MultipartBody(parts: [.init(name: "f", content: .file(dir.appendingPathComponent("data.bin").path)),
                                         .init(name: "v", content: .text("value"))])
        for (name, transport) in try transports() {
            let r = try await transport.send(request("POST", "/post", .multipart(body),
                                                     headers: [HeaderField("Content-Type", body.contentType)]))
            let echo = try json(r)
            XCTAssertEqual(echo["files"] as? [String: String],
                           ["f": "data:application/octet-stream;base64," + bytes.base64EncodedString()], name)
            XCTAssertEqual(echo["form"] as? [String: String], ["v": "value"], name)
        }
    }

    func testStreamedUploadsReportProgressUpToTheLength() async throws {
        let events = Events()
        let transport = NIOTransport(tls: TLSOptions())
        _ = try await transport.send(request("PUT", "/put", .file(dir.appendingPathComponent("data.bin").path)),
                                     transfer: Transfer(progress: events.add))
        let uploads = events.all.filter { $0.direction == .upload }
        XCTAssertEqual(uploads.first, TransferProgress(.upload, bytes: 0, total: 70_000))
        XCTAssertEqual(uploads.last, TransferProgress(.upload, bytes: 70_000, total: 70_000))
        XCTAssertEqual(uploads.map(\.bytes), uploads.map(\.bytes).sorted())
    }

    func testDownloadsGoIntoTheDestinationWithProgress() async throws {
        for (name, transport) in try transports() {
            let events = Events()
            let file = try PartialFile.create(for: dir.appendingPathComponent("range-\(name)").path)
            let r = try await transport.send(request("GET", "/range/50000", nil),
                                             transfer: Transfer(destination: file, progress: events.add))
            XCTAssertEqual(r.status, 200, name)
            XCTAssertEqual(r.body, Data(), name)
            XCTAssertTrue(r.saved === file, name)
            try file.commit()
            let alphabet = Array("abcdefghijklmnopqrstuvwxyz".utf8)
            XCTAssertEqual(try Data(contentsOf: dir.appendingPathComponent("range-\(name)")),
                           Data((0..<50_000).map { alphabet[$0 % 26] }), name)
            if name != "URLSession" {  // URLSession collects in memory first: no progress to report
                XCTAssertEqual(events.all.last, TransferProgress(.download, bytes: 50_000, total: 50_000), name)
            }
        }
    }

    func testAMissingUploadFileIsBadInputBeforeAnythingIsSent() async throws {
        for (name, transport) in try transports() {
            do {
                _ = try await transport.send(request("PUT", "/put", .file(dir.appendingPathComponent("gone").path)))
                XCTFail("expected an error from \(name)")
            } catch {
                XCTAssertEqual(error, .invalid(Diagnostic(file: nil, mark: nil,
                    message: "cannot read \(dir.appendingPathComponent("gone").path): No such file or directory")), name)
            }
        }
    }
}
