import Foundation
import XCTest
@testable import APIDiagnostics
@testable import APITargets
@testable import APIEndpoint
@testable import APIImport

/// `multipart:`, `upload:` and `download:` tasks: decoding, their diagnostics, `-F` parts, and the
/// requests they build.
final class TransferTaskTests: XCTestCase {
    private var dir: URL!
    private var gif = ""
    private var data = ""

    override func setUpWithError() throws {
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("apicli-tt-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        gif = dir.appendingPathComponent("gif.gif").path
        data = dir.appendingPathComponent("data.bin").path
        try Data("GIF89a".utf8).write(to: URL(fileURLWithPath: gif))
        try Data(repeating: 1, count: 10).write(to: URL(fileURLWithPath: data))
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: dir)
    }

    private func endpoint(_ yaml: String, _ name: String, parts: [FormPart] = [],
                          params: [String: String] = [:]) throws -> Endpoint {
        let service = try decodeService(yaml)
        let resolver = EndpointResolver(environment: [:], overrides: .init(params: params, parts: parts))
        return try resolver.endpoint(for: try service.requireTarget(name), in: service)
    }

    private var uploads: String {
        """
        baseURL: https://api.test
        targets:
          upload:
            method: POST
            path: /post
            params: { who: world }
            task:
              multipart:
                - { name: file, file: \(gif), filename: pic.gif, type: image/gif }
                - { name: comment, value: "hello {who}" }
              query: { v: 2 }
          putFile:
            method: PUT
            task: { upload: \(data) }
          typed:
            method: PUT
            task: { upload: \(gif), contentType: application/x-thing }
          download:
            path: /bytes/{size}
            params: { size: 1024 }
            task: { download: "downloads/{size}.bin" }
          plain:
            method: POST
            path: /post
        """
    }

    // MARK: Decoding

    func testMultipartUploadAndDownloadDecode() throws {
        let service = try decodeService(uploads)
        guard case .multipart(let parts)? = try service.requireTarget("upload").task.body else {
            return XCTFail("upload has no multipart body")
        }
        XCTAssertEqual(parts.map(\.name), ["file", "comment"])
        XCTAssertEqual(parts.map(\.filename), ["pic.gif", nil])
        XCTAssertEqual(parts.map(\.type), ["image/gif", nil])
        guard case .upload(let path, _)? = try service.requireTarget("putFile").task.body else { return XCTFail("no upload") }
        XCTAssertEqual(path, data)
        XCTAssertEqual(try service.requireTarget("download").task.download?.text, "downloads/{size}.bin")
    }

    func testMultipartOnAMethodWithoutABodyIsADiagnosticAtTheKey() {
        // GIVEN multipart and upload on GET and DELETE targets
        let found = decodeDiagnostics("""
            baseURL: https://api.test
            targets:
              avatar:
                path: /avatar
                task:
                  multipart: [{ name: a, value: b }]
              wipe:
                method: DELETE
                task: { upload: \(data) }
            """)
        // THEN each is an error at its task key, naming the method, never a crash
        XCTAssertEqual(found, [
            Diagnostic(file: inlineFile, mark: at(6, 7), message: "multipart needs a method that carries a body; GET does not",
                       hint: "set method: POST (or PUT, PATCH) on target 'avatar'"),
            Diagnostic(file: inlineFile, mark: at(9, 13), message: "upload needs a method that carries a body; DELETE does not",
                       hint: "set method: POST (or PUT, PATCH) on target 'wipe'"),
        ])
    }

    func testBadPartsAreReportedEachAtItsPlace() {
        let found = decodeDiagnostics("""
            baseURL: https://api.test
            targets:
              t:
                method: POST
                task:
                  multipart:
                    - { value: nameless }
                    - { name: both, value: x, file: \(gif) }
                    - { name: neither }
                    - { name: missing, file: nope.bin }
                    - { name: typo, vaule: x }
            """)
        XCTAssertEqual(found.map { "\($0.mark!) \($0.message)" }, [
            "7:11 a multipart part needs a name:",
            "8:35 a multipart part takes value: or file:, not both",
            "9:11 a multipart part needs value: or file:",
            "11:25 unknown key 'vaule' in a multipart part",
            "11:11 a multipart part needs value: or file:",
        ])
        XCTAssertEqual(found[3].hint, "did you mean 'value'?")
    }

    func testOtherMultipartMistakes() {
        let found = decodeDiagnostics("""
            baseURL: https://api.test
            targets:
              empty: { method: POST, task: { multipart: [] } }
              scalar: { method: POST, task: { multipart: file.gif } }
              two: { method: POST, task: { json: { a: 1 }, multipart: [{ name: a, value: b }] } }
              typed: { method: POST, task: { multipart: [{ name: a, value: b }], contentType: text/plain } }
              nowhere: { task: { download: "out/" } }
              typo: { task: { multipar: [] } }
            """)
        XCTAssertEqual(found.map { "\($0.mark!) \($0.message)" }, [
            "3:45 multipart: [] has no parts",
            "4:46 multipart must be a list of parts, not a scalar",
            "5:48 task has more than one body: json and multipart",
            "6:70 a multipart task sets its own Content-Type (with the boundary)",
            "7:32 download must name a file, not 'out/'",
            "8:19 unknown key 'multipar' in task",
        ])
        XCTAssertEqual(found.last?.hint, "did you mean 'multipart'?")
    }

    // MARK: Requests

    func testMultipartRequestCarriesTheBoundaryAndTheQuery() throws {
        let endpoint = try endpoint(uploads, "upload")
        let request = try RequestBuilder.build(endpoint, boundary: "XYZ")
        XCTAssertEqual(request.url.absoluteString, "https://api.test/post?v=2")
        XCTAssertEqual(request.headers.value(of: "Content-Type"), "multipart/form-data; boundary=XYZ")
        XCTAssertEqual(request.body, .multipart(MultipartBody(boundary: "XYZ", parts: [
            .init(name: "file", content: .file(gif), filename: "pic.gif", type: "image/gif"),
            .init(name: "comment", content: .text("hello world")),
        ])))
    }

    func testADeclaredMultipartTypeGetsTheBoundary() throws {
        var endpoint = try endpoint(uploads, "upload")
        endpoint.headers.set("Content-Type", "multipart/mixed")
        XCTAssertEqual(try RequestBuilder.build(endpoint, boundary: "XYZ").headers.value(of: "Content-Type"),
                       "multipart/mixed; boundary=XYZ")
    }

    func testUploadIsTypedByItsExtensionUnlessContentTypeSaysOtherwise() throws {
        let put = try RequestBuilder.build(try endpoint(uploads, "putFile"))
        XCTAssertEqual(put.body, .file(data))
        XCTAssertEqual(put.headers.value(of: "Content-Type"), "application/octet-stream")
        let typed = try RequestBuilder.build(try endpoint(uploads, "typed"))
        XCTAssertEqual(typed.headers.value(of: "Content-Type"), "application/x-thing")
    }

    func testDownloadPathExpandsParams() throws {
        XCTAssertEqual(try endpoint(uploads, "download").download, "downloads/1024.bin")
        XCTAssertEqual(try endpoint(uploads, "download", params: ["size": "7"]).download, "downloads/7.bin")
        XCTAssertNil(try endpoint(uploads, "plain").download)
    }

    // MARK: -F

    private func names(_ endpoint: Endpoint) -> [String] {
        guard case .multipart(let parts)? = endpoint.task.body else { return [] }
        return parts.map { part in
            switch part.content {
            case .value(let t): return "\(part.name)=\(t.text)"
            case .file(let path): return "\(part.name)=@\((path as NSString).lastPathComponent)"
            }
        }
    }

    func testFormPartsReplaceDeclaredPartsInPlaceAndAddNewOnes() throws {
        let parts = [FormPart(name: "comment", content: .value(Template("{not expanded}", mark: at(0, 0)))),
                     FormPart(name: "extra", content: .file(data)),
                     FormPart(name: "comment", content: .value(Template("second", mark: at(0, 0))))]
        XCTAssertEqual(names(try endpoint(uploads, "upload", parts: parts)),
                       ["file=@gif.gif", "comment={not expanded}", "comment=second", "extra=@data.bin"])
    }

    func testFormPartsMakeAMultipartBodyForATargetWithoutOne() throws {
        let parts = [FormPart(name: "a", content: .value(Template("1", mark: at(0, 0))))]
        XCTAssertEqual(names(try endpoint(uploads, "plain", parts: parts)), ["a=1"])
    }

    func testFormPartsOnABodylessMethodOrAnotherBodyAreErrors() throws {
        let parts = [FormPart(name: "a", content: .value(Template("1", mark: at(0, 0))))]
        let get = expectAPIError { () throws(APIError) in
            do { return try self.endpoint(uploads, "download", parts: parts) } catch { throw error as! APIError }
        }
        XCTAssertEqual(get.map { diagnostics(of: $0).map(\.message) },
                       ["-F sends a multipart body, which a GET request cannot carry (demo.download)"])
        let put = expectAPIError { () throws(APIError) in
            do { return try self.endpoint(uploads, "putFile", parts: parts) } catch { throw error as! APIError }
        }
        XCTAssertEqual(put.map { diagnostics(of: $0).map(\.message) },
                       ["-F adds multipart parts, but demo.putFile already sends another kind of body"])
    }
}
