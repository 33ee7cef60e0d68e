import XCTest
@testable import APITargets
@testable import APIImport

/// Splitting curl command lines as a shell does, and reading their options.
final class ImportCurlTests: XCTestCase {
    private func curl(_ command: String) throws -> ImportResult {
        try CurlImport(options: .init(cwd: "/")).run(ImportInput(name: "curl", text: command))
    }

    func testShellWords() throws {
        XCTAssertEqual(try ShellWords.split(#"curl 'a b' "c \"d\" \$e" f\ g"#), ["curl", "a b", #"c "d" $e"#, "f g"])
        XCTAssertEqual(try ShellWords.split("curl \\\n  -H 'X: 1' \\\n  url"), ["curl", "-H", "X: 1", "url"])
        XCTAssertEqual(try ShellWords.split(#"curl $'it\'s\n\x41' ''"#), ["curl", "it's\nA", ""])
        XCTAssertEqual(try ShellWords.split(#"curl 'it'\''s'"#), ["curl", "it's"])
        XCTAssertThrowsError(try ShellWords.split("curl \"open"))
    }

    /// `$'…'` as bash reads it: every escape Chrome's and Firefox's "Copy as cURL" write (`\uXXXX`
    /// for every non-ASCII character), and the rest of bash's. bash itself is the judge.
    func testANSICQuotingMatchesBash() throws {
        let words = [
            #"It\u2019s caf\u00e9"#, #"\U0001F600 \x41\x4 \101\7z"#, #"\cA\c?\ca\e\a\b\f\v\?"#,
            #"tab\tnl\ncr\r q\' dq\" bs\\ unknown\q \xZZ \uZZ"#, #"\xc3\xa9 \303\251"#, #"{"a":"\u00fc"}"#,
        ]
        for w in words {
            let bash = Process()
            bash.executableURL = URL(fileURLWithPath: "/bin/bash")
            bash.arguments = ["-c", "printf %s $'\(w)'"]
            let pipe = Pipe()
            bash.standardOutput = pipe
            try bash.run()
            let expected = pipe.fileHandleForReading.readDataToEndOfFile()
            bash.waitUntilExit()
            let ours = try ShellWords.split("curl $'\(w)'")
            XCTAssertEqual(ours.count, 2, w)
            XCTAssertEqual(Array(ours.last!.utf8), [UInt8](expected), w)
        }
        XCTAssertEqual(try ShellWords.split(#"curl $'It\u2019s caf\u00e9'"#).last, "It’s café")
    }

    func testCombinedAndAttachedShortOptions() throws {
        let w = FileManager.default.temporaryDirectory.appendingPathComponent("curl-short-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: w, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: w) }
        try Data("png".utf8).write(to: w.appendingPathComponent("pic.png"))
        var p = CurlParser(cwd: w.path)
        try p.parse(["curl", "-sSLk", "-XPATCH", "-HX-A: 1", "-uu:p", "-F", "f=@pic.png;type=image/png;filename=\"a;b.png\"", "http://h/x"])
        XCTAssertEqual(p.request.method, "PATCH")
        XCTAssertTrue(p.request.insecure)
        XCTAssertEqual(p.request.headers.map { "\($0.name)=\($0.value)" }, ["X-A=1"])
        XCTAssertEqual(p.request.user, "u:p")
        XCTAssertEqual(p.request.form.first?.file, w.path + "/pic.png")
        XCTAssertEqual(p.request.form.first?.type, "image/png")
        XCTAssertEqual(p.request.form.first?.filename, "a;b.png")
        XCTAssertEqual(p.warnings, [])
    }

    func testQueryListsAndDataURLEncode() throws {
        let r = try curl("curl -G 'http://h/s?t%5B%5D=a&t%5B%5D=b&id=1&id=2' --data-urlencode 'q=a b&c'")
        // THEN the query as curl sends it: order, repeats and brackets kept (curl writes a space as +)
        XCTAssertEqual(r.draft.targets[0].task, [.pair("query", .string("t%5B%5D=a&t%5B%5D=b&id=1&id=2&q=a+b%26c"))])
        // a query apicli's own encoding writes the same way stays a mapping
        let sorted = try curl("curl 'http://h/s?a=1&b=x%20y&c=/'")
        XCTAssertEqual(sorted.draft.targets[0].task, [.pair("query", .map([.pair("a", .string("1")), .pair("b", .string("x y")),
                                                                          .pair("c", .string("/"))]))])
        XCTAssertEqual(r.draft.targets[0].method, "GET")
    }
}
