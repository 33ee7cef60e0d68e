import Foundation
import XCTest
@testable import APIDiagnostics
@testable import APIEndpoint
@testable import APITransport

/// Multipart bodies (RFC 7578) and streamed request bodies: exact bytes, part types, chunked reads.
final class MultipartTests: XCTestCase {
    private var dir: URL!

    override func setUpWithError() throws {
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("apicli-mp-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: dir)
    }

    private func file(_ name: String, _ bytes: Data) throws -> String {
        let url = dir.appendingPathComponent(name)
        try bytes.write(to: url)
        return url.path
    }

    /// Reads a body through `BodyReader`, `limit` bytes at a time.
    private func read(_ body: PreparedRequest.Body, limit: Int = 1 << 16) throws -> Data {
        let reader = BodyReader(try SizedBody(body))
        var out = Data()
        while let chunk = try reader.next(limit: limit) { out += chunk }
        return out
    }

    func testBodyBytesFollowRFC7578() throws {
        // GIVEN a file part with a declared type and filename, a file part typed by its extension, a value part
        let gif = try file("pic.gif", Data("GIF89a".utf8))
        let text = try file("notes.TXT", Data("line\n".utf8))
        let body = MultipartBody(boundary: "B0UND", parts: [
            .init(name: "file", content: .file(gif), filename: "upload.gif", type: "image/x-custom"),
            .init(name: "notes", content: .file(text)),
            .init(name: "comment", content: .text("hello wörld")),
        ])
        // WHEN read in small chunks (the reader crosses piece boundaries)
        let bytes = try read(.multipart(body), limit: 7)
        // THEN delimiters, dispositions, types and CRLFs are exactly RFC 7578's; values carry no Content-Type
        XCTAssertEqual(bytes.utf8Text, """
            --B0UND\r
            Content-Disposition: form-data; name="file"; filename="upload.gif"\r
            Content-Type: image/x-custom\r
            \r
            GIF89a\r
            --B0UND\r
            Content-Disposition: form-data; name="notes"; filename="notes.TXT"\r
            Content-Type: text/plain\r
            \r
            line
            \r
            --B0UND\r
            Content-Disposition: form-data; name="comment"\r
            \r
            hello wörld\r
            --B0UND--\r

            """)
        XCTAssertEqual(try SizedBody(.multipart(body)).length, Int64(bytes.count))
        XCTAssertEqual(body.contentType, "multipart/form-data; boundary=B0UND")
    }

    func testQuotesAndLineBreaksInNamesAreEscapedAsBrowsersDo() throws {
        let body = MultipartBody(boundary: "b", parts: [.init(name: "a\"b\r\nc", content: .text("v"), filename: "x\".txt")])
        XCTAssertTrue(try read(.multipart(body)).utf8Text
            .contains("Content-Disposition: form-data; name=\"a%22b%0D%0Ac\"; filename=\"x%22.txt\"\r\n"))
    }

    func testPartTypesDefaultFromTheExtension() {
        XCTAssertEqual(MediaType.forPath("a/b/photo.PNG"), "image/png")
        XCTAssertEqual(MediaType.forPath("x.json"), "application/json")
        XCTAssertEqual(MediaType.forPath("archive.tar.gz"), "application/gzip")
        XCTAssertEqual(MediaType.forPath("data.bin"), "application/octet-stream")
        XCTAssertEqual(MediaType.forPath("noextension"), "application/octet-stream")
    }

    func testBoundariesAreRandomAndLong() {
        let a = MultipartBody.randomBoundary(), b = MultipartBody.randomBoundary()
        XCTAssertNotEqual(a, b)
        XCTAssertTrue(a.hasPrefix("apicli-"))
        XCTAssertEqual(a.count, "apicli-".count + 32)
        XCTAssertTrue(a.dropFirst(7).allSatisfy { $0.isHexDigit })
    }

    func testAFileBodyIsReadWholeInChunks() throws {
        // GIVEN a file larger than one chunk
        let bytes = Data((0..<200_000).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        let path = try file("data.bin", bytes)
        // WHEN read 64 KiB at a time THEN the same bytes arrive, and the size was known before
        XCTAssertEqual(try read(.file(path)), bytes)
        XCTAssertEqual(try SizedBody(.file(path)).length, 200_000)
    }

    func testAMissingFileIsBadInput() {
        let error = expectAPIError { () throws(APIError) in try SizedBody(.file(dir.appendingPathComponent("gone").path)) }
        XCTAssertEqual(error.map { diagnostics(of: $0).map(\.message) },
                       ["cannot read \(dir.appendingPathComponent("gone").path): No such file or directory"])
    }

    func testAFileThatShrinksWhileSentIsAnErrorNotAShortBody() throws {
        // GIVEN a body measured at 100 bytes
        let path = try file("shrinks.bin", Data(repeating: 7, count: 100))
        let reader = BodyReader(try SizedBody(.file(path)))
        // WHEN the file loses bytes before they are read
        XCTAssertEqual(truncate(path, 40), 0)
        // THEN reading fails with a clear message instead of sending fewer bytes than announced
        let error = expectAPIError { () throws(APIError) in try reader.next(limit: 1000) }
        XCTAssertEqual(error.map { diagnostics(of: $0).map(\.message) }, ["\(path) got shorter while it was being sent"])
    }

    func testStreamedBodiesAreTheOnesWithFiles() throws {
        XCTAssertFalse(PreparedRequest.Body.data(Data("x".utf8)).isStreamed)
        XCTAssertTrue(PreparedRequest.Body.file("/x").isStreamed)
        XCTAssertFalse(PreparedRequest.Body.multipart(MultipartBody(parts: [.init(name: "a", content: .text("b"))])).isStreamed)
        XCTAssertTrue(PreparedRequest.Body.multipart(MultipartBody(parts: [.init(name: "a", content: .file("/f"))])).isStreamed)
    }
}
