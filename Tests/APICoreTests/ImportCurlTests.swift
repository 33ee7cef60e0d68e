import XCTest
@testable import APICore

/// Splitting curl command lines as a shell does, and reading their options.
final class ImportCurlTests: XCTestCase {
    func testShellWords() throws {
        XCTAssertEqual(try ShellWords.split(#"curl 'a b' "c \"d\" \$e" f\ g"#), ["curl", "a b", #"c "d" $e"#, "f g"])
        XCTAssertEqual(try ShellWords.split("curl \\\n  -H 'X: 1' \\\n  url"), ["curl", "-H", "X: 1", "url"])
        XCTAssertEqual(try ShellWords.split(#"curl $'it\'s\n\x41' ''"#), ["curl", "it's\nA", ""])
        XCTAssertEqual(try ShellWords.split(#"curl 'it'\''s'"#), ["curl", "it's"])
        XCTAssertThrowsError(try ShellWords.split("curl \"open"))
    }

    func testCombinedAndAttachedShortOptions() throws {
        var p = CurlParser(cwd: "/w")
        try p.parse(["curl", "-sSLk", "-XPATCH", "-HX-A: 1", "-uu:p", "-F", "f=@pic.png;type=image/png;filename=\"a;b.png\"", "http://h/x"])
        XCTAssertEqual(p.request.method, "PATCH")
        XCTAssertTrue(p.request.insecure)
        XCTAssertEqual(p.request.headers.map { "\($0.name)=\($0.value)" }, ["X-A=1"])
        XCTAssertEqual(p.request.user, "u:p")
        XCTAssertEqual(p.request.form.first?.file, "/w/pic.png")
        XCTAssertEqual(p.request.form.first?.type, "image/png")
        XCTAssertEqual(p.request.form.first?.filename, "a;b.png")
        XCTAssertEqual(p.warnings, [])
    }

    func testQueryListsAndDataURLEncode() throws {
        let r = try CurlImport.run("curl -G 'http://h/s?t%5B%5D=a&t%5B%5D=b&id=1&id=2' --data-urlencode 'q=a b&c'", options: .init(cwd: "/"))
        XCTAssertEqual(r.draft.targets[0].task, [
            .pair("query", .map([.pair("t", .list([.string("a"), .string("b")])), .pair("id", .list([.string("1"), .string("2")])),
                                 .pair("q", .string("a b&c"))])),
            .pair("arrays", .string("noBrackets")),
        ])
        XCTAssertEqual(r.draft.targets[0].method, "GET")
    }
}
