import Foundation
import XCTest

/// Uploads and downloads with `apicli call` against the local httpbin: multipart, file PUT,
/// downloads by length and byte for byte, rejected downloads, `--download` names, `-F`, stubs.
final class TransferCLITests: XCTestCase {
    var base = ""
    var dir: URL!
    /// Bytes 0, 7, 14, … (binary: not valid UTF-8), 3,000 of them.
    let binary = Data((0..<3000).map { UInt8(truncatingIfNeeded: $0 &* 7) })

    override func setUpWithError() throws {
        base = try CLI.httpbin()
        dir = try CLI.folder([
            "targets/bin.yaml": """
                baseURL: https://httpbin.test
                validate: success
                targets:
                  upload:
                    method: POST
                    path: /post
                    params: { who: world }
                    task:
                      multipart:
                        - { name: file, file: fixtures/data.bin, filename: blob.bin, type: application/x-blob }
                        - { name: notes, file: fixtures/notes.txt }
                        - { name: comment, value: "hello {who}" }
                      query: { v: 2 }
                    sample: { json: { ok: true } }
                  putFile:
                    method: PUT
                    path: /put
                    task: { upload: fixtures/data.bin, contentType: application/octet-stream }
                  download:
                    path: /bytes/{size}
                    params: { size: 102400 }
                    task: { download: "downloads/{size}.bin" }
                    sample: { file: fixtures/data.bin }
                  range:
                    path: /range/{size}
                    params: { size: 100000 }
                  decoded:
                    path: /base64/{value}
                    params: { value: YXBpY2xpIGJ5dGUtZm9yLWJ5dGUg4pyTIOKAlCBuYcOvdmUK }
                  named:
                    path: /response-headers
                    task: { query: { Content-Disposition: 'attachment; filename="report.txt"' } }
                  failing:
                    path: /status/500
                    task: { download: precious.bin }
                  form:
                    method: POST
                    path: /post
                  streamed:
                    path: /stream-bytes/{size}
                    params: { size: 65000 }
                """,
            "bad/api.yaml": """
                baseURL: https://x.test
                targets:
                  avatar:
                    path: /avatar
                    task:
                      multipart:
                        - { name: file, value: x }
                """,
            "targets/fixtures/notes.txt": "line one\nline two\n",
        ])
        try binary.write(to: dir.appendingPathComponent("targets/fixtures/data.bin"))
    }

    override func tearDownWithError() throws {
        if let dir { try? FileManager.default.removeItem(at: dir) }
    }

    func call(_ args: String..., cwd: URL? = nil) throws -> CLI.Result {
        try CLI.run(["call"] + args + ["--targets", dir.appendingPathComponent("targets").path],
                    env: ["APICLI_BASE_URL_BIN": base], cwd: cwd ?? dir)
    }

    private func json(_ r: CLI.Result, file: StaticString = #filePath, line: UInt = #line) throws -> [String: Any] {
        XCTAssertEqual(r.code, 0, r.stderr, file: file, line: line)
        return try XCTUnwrap(JSONSerialization.jsonObject(with: r.stdoutData) as? [String: Any], r.stdout, file: file, line: line)
    }

    /// httpbin's echo of a binary file part: `data:TYPE;base64,…`.
    private func dataURL(_ type: String, _ bytes: Data) -> String {
        "data:\(type);base64," + bytes.base64EncodedString()
    }

    private func leftovers(_ folder: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasPrefix(".apicli-") }
    }

    // MARK: Uploads

    func testMultipartArrivesAsFilesAndFormWithTheQuery() throws {
        // GIVEN a composite multipart task (two files, a value with a {param}) and a query
        // WHEN sent to httpbin's /post
        let echo = try json(try call("bin.upload"))
        // THEN the files and the form field arrive, typed as declared or by extension, with the query
        let files = try XCTUnwrap(echo["files"] as? [String: String])
        XCTAssertEqual(files["file"], dataURL("application/x-blob", binary))
        XCTAssertEqual(files["notes"], "line one\nline two\n")
        XCTAssertEqual(echo["form"] as? [String: String], ["comment": "hello world"])
        XCTAssertEqual(echo["args"] as? [String: String], ["v": "2"])
        let headers = try XCTUnwrap(echo["headers"] as? [String: String])
        XCTAssertTrue(headers["Content-Type"]?.hasPrefix("multipart/form-data; boundary=apicli-") == true, "\(headers)")
        XCTAssertNotNil(headers["Content-Length"], "sent with a length, not chunked: \(headers)")
        XCTAssertNil(headers["Transfer-Encoding"])
    }

    func testFormOptionsReplaceAndAddParts() throws {
        let extra = dir.appendingPathComponent("extra.txt")
        try Data("from the command line".utf8).write(to: extra)
        // WHEN -F replaces a declared value part, replaces a declared file part, and adds one
        let echo = try json(try call("bin.upload", "-F", "comment=override", "-F", "notes=@extra.txt;type=text/x-note",
                                     "-F", "added=@\(extra.path);filename=x"))
        XCTAssertEqual(echo["form"] as? [String: String], ["comment": "override"])
        let files = try XCTUnwrap(echo["files"] as? [String: String])
        XCTAssertEqual(files["notes"], "from the command line")
        XCTAssertEqual(files["added"], "from the command line")
        XCTAssertEqual(files["file"], dataURL("application/x-blob", binary))
    }

    func testFormOptionsMakeAMultipartBodyForATargetWithoutABody() throws {
        let echo = try json(try call("bin.form", "-F", "a=1", "-F", "b=two words"))
        XCTAssertEqual(echo["form"] as? [String: String], ["a": "1", "b": "two words"])
    }

    func testFileIsPutByteForByte() throws {
        let echo = try json(try call("bin.putFile"))
        XCTAssertEqual(echo["data"] as? String, dataURL("application/octet-stream", binary))
        XCTAssertEqual((echo["headers"] as? [String: String])?["Content-Length"], "3000")
    }

    // MARK: Downloads

    func testDownloadByLengthIntoAFolderItMakes() throws {
        // GIVEN task: download into downloads/{size}.bin, a folder that does not exist yet
        let r = try call("bin.download")
        // THEN the file holds every byte, stdout is empty, and stderr says where it went
        XCTAssertEqual(r.code, 0, r.stderr)
        XCTAssertEqual(r.stdout, "")
        XCTAssertEqual(r.stderr, "apicli: saved downloads/102400.bin (102400 bytes)\n")
        let saved = try Data(contentsOf: dir.appendingPathComponent("downloads/102400.bin"))
        XCTAssertEqual(saved.count, 102400)
        XCTAssertEqual(try leftovers(dir.appendingPathComponent("downloads")), [])
        // AND -p picks another size and file; --quiet says nothing
        let small = try call("bin.download", "-p", "size=10", "--quiet")
        XCTAssertEqual(small.stderr, "")
        XCTAssertEqual(try Data(contentsOf: dir.appendingPathComponent("downloads/10.bin")).count, 10)
    }

    func testChunkedDownloadWithOutputFile() throws {
        // GIVEN /stream-bytes: chunked, no Content-Length
        let out = dir.appendingPathComponent("stream.bin")
        let r = try call("bin.streamed", "-o", out.path)
        XCTAssertEqual(r.code, 0, r.stderr)
        XCTAssertEqual(try Data(contentsOf: out).count, 65000)
        XCTAssertEqual(try leftovers(dir), [])
    }

    func testRangeDownloadMatchesByteForByte() throws {
        let out = dir.appendingPathComponent("range.bin")
        let r = try call("bin.range", "-o", out.path)
        XCTAssertEqual(r.code, 0, r.stderr)
        XCTAssertEqual(r.stderr, "", "-o names the file: nothing to say")
        let alphabet = Array("abcdefghijklmnopqrstuvwxyz".utf8)
        XCTAssertEqual(try Data(contentsOf: out), Data((0..<100000).map { alphabet[$0 % 26] }))
    }

    func testBase64DownloadMatchesByteForByte() throws {
        let out = dir.appendingPathComponent("decoded.txt")
        let r = try call("bin.decoded", "-o", out.path)
        XCTAssertEqual(r.code, 0, r.stderr)
        XCTAssertEqual(try Data(contentsOf: out), Data("apicli byte-for-byte ✓ — naïve\n".utf8))
    }

    func testRejectedDownloadLeavesTheExistingFileUntouched() throws {
        // GIVEN an existing destination
        let precious = dir.appendingPathComponent("precious.bin")
        try Data("keep me".utf8).write(to: precious)
        // WHEN the server answers 500 and validate: success rejects it
        let r = try call("bin.failing")
        // THEN exit 1, the file is as it was, and no temporary file is left
        XCTAssertEqual(r.code, 1)
        XCTAssertEqual(r.stderr, "apicli: bin.failing: rejected: status 500 Internal Server Error is not accepted by "
                       + "validate: success (200-299); precious.bin was not written\n")
        XCTAssertEqual(try String(contentsOf: precious, encoding: .utf8), "keep me")
        XCTAssertEqual(try leftovers(dir), [])
        // AND -o too
        let o = try call("bin.failing", "-o", precious.path)
        XCTAssertEqual(o.code, 1)
        XCTAssertEqual(try String(contentsOf: precious, encoding: .utf8), "keep me")
        XCTAssertEqual(try leftovers(dir), [])
    }

    func testDownloadNamesTheFileFromContentDispositionAndNeverReplacesOne() throws {
        let r = try call("bin.named", "--download")
        XCTAssertEqual(r.code, 0, r.stderr)
        let report = dir.appendingPathComponent("report.txt")
        let body = try String(contentsOf: report, encoding: .utf8)
        XCTAssertTrue(body.contains(#""Content-Disposition": "attachment; filename=\"report.txt\"""#), body)
        XCTAssertEqual(r.stderr, "apicli: saved report.txt (\(body.utf8.count) bytes)\n")
        // WHEN the same name comes again THEN exit 5, the first file intact, nothing else left
        try Data("mine".utf8).write(to: report)
        let again = try call("bin.named", "--download")
        XCTAssertEqual(again.code, 5)
        XCTAssertEqual(again.stderr, "apicli: bin.named: report.txt already exists; apicli does not replace a file named by "
                       + "the server (remove it, or choose the name with -o)\n")
        XCTAssertEqual(try String(contentsOf: report, encoding: .utf8), "mine")
        XCTAssertEqual(try leftovers(dir), [])
    }

    func testDownloadNamesTheFileFromTheURL() throws {
        let r = try call("bin.range", "-p", "size=64", "--download")
        XCTAssertEqual(r.code, 0, r.stderr)
        XCTAssertEqual(try Data(contentsOf: dir.appendingPathComponent("64")).count, 64)
    }

    // MARK: Input errors

    func testMultipartOnGETIsATargetFileError() throws {
        let bad = dir.appendingPathComponent("bad").path
        let r = try CLI.run(["call", "api.avatar", "--targets", bad], cwd: dir)
        XCTAssertEqual(r.code, 2)
        XCTAssertEqual(r.stderr, """
            \(bad)/api.yaml:6:7: error: multipart needs a method that carries a body; GET does not
              6 |       multipart:
                |       ^
                hint: set method: POST (or PUT, PATCH) on target 'avatar'

            """)
    }

    func testFormOptionMistakes() throws {
        let get = try call("bin.decoded", "-F", "a=1")
        XCTAssertEqual(get.code, 2)
        XCTAssertTrue(get.stderr.contains("error: -F sends a multipart body, which a GET request cannot carry (bin.decoded)"), get.stderr)
        let other = try call("bin.putFile", "-F", "a=1")
        XCTAssertEqual(other.code, 2)
        XCTAssertTrue(other.stderr.contains("error: -F adds multipart parts, but bin.putFile already sends another kind of body"),
                      other.stderr)
        let missing = try call("bin.form", "-F", "f=@nowhere.bin")
        XCTAssertEqual(missing.code, 2)
        XCTAssertEqual(missing.stderr, "error: -F f=@nowhere.bin: cannot read nowhere.bin: No such file or directory\n"
                       + "    hint: paths after @ are relative to the working directory\n")
        let malformed = try call("bin.form", "-F", "novalue")
        XCTAssertEqual(malformed.code, 64)
        XCTAssertTrue(malformed.stderr.contains("-F takes name=value or name=@file, got 'novalue'"), malformed.stderr)
        let both = try call("bin.range", "--download", "-o", "x")
        XCTAssertEqual(both.code, 64)
    }

    // MARK: Stubs, show, curl

    func testStubbedUploadChecksAndReportsItsFilesAndSendsNothing() throws {
        let r = try CLI.run(["call", "bin.upload", "--stub", "--targets", dir.appendingPathComponent("targets").path], cwd: dir)
        XCTAssertEqual(r.code, 0, r.stderr)
        XCTAssertEqual(r.stdout, #"{"ok":true}"#)
        let folder = dir.appendingPathComponent("targets/fixtures").path
        XCTAssertEqual(r.stderr, "apicli: stub: not sending \(folder)/data.bin (3000 bytes)\n"
                       + "apicli: stub: not sending \(folder)/notes.txt (18 bytes)\n")
    }

    func testStubbedDownloadWritesTheSampleFile() throws {
        let r = try CLI.run(["call", "bin.download", "--stub", "-p", "size=5", "--targets", dir.appendingPathComponent("targets").path],
                            cwd: dir)
        XCTAssertEqual(r.code, 0, r.stderr)
        XCTAssertEqual(try Data(contentsOf: dir.appendingPathComponent("downloads/5.bin")), binary)
    }

    func testShowAndCurlDescribeTheTransfer() throws {
        let targets = dir.appendingPathComponent("targets").path
        let show = try CLI.run(["show", "bin.download", "--targets", targets], cwd: dir)
        XCTAssertTrue(show.stdout.contains("\ndownload  downloads/102400.bin\n"), show.stdout)
        let multipart = try CLI.run(["show", "bin.upload", "--targets", targets, "-F", "extra=x"], cwd: dir)
        let boundary = multipart.stdout.components(separatedBy: "boundary=").dropFirst().first?.prefix(39) ?? ""
        XCTAssertEqual(multipart.stdout, """
            bin.upload  (\(targets)/bin.yaml:4)

            POST https://httpbin.test/post?v=2
            Content-Type: multipart/form-data; boundary=\(boundary)
            User-Agent: \(CLI.defaultUserAgent)

            [multipart/form-data, 4 parts]
              file: blob.bin (application/x-blob) from \(targets)/fixtures/data.bin, 3000 bytes
              notes: notes.txt (text/plain) from \(targets)/fixtures/notes.txt, 18 bytes
              comment: hello world
              extra: x

            timeout   60 s
            validate  success (200-299)
            samples   sample (200)

            """)
        let curl = try CLI.run(["call", "bin.upload", "--dry-run", "--curl", "--targets", targets], cwd: dir)
        XCTAssertEqual(curl.stdout, "curl -L -X POST 'https://httpbin.test/post?v=2' "
                       + "-H 'User-Agent: \(CLI.defaultUserAgent)' "
                       + "-F 'file=@\(targets)/fixtures/data.bin;filename=blob.bin;type=application/x-blob' "
                       + "-F 'notes=@\(targets)/fixtures/notes.txt;type=text/plain' --form-string 'comment=hello world' --max-time 60\n")
    }
}
