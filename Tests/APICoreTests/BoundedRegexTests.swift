import XCTest
@testable import APISupport
@testable import APIJSON
@testable import APISchema

/// Issue 34 item 3: every regex is PCRE2 with a bound on its work, stopped where the bound is hit
/// on the caller's thread (no thread left spinning), and JSON Schema's patterns keep ECMA-262's
/// meaning.
final class BoundedRegexTests: XCTestCase {
    /// Threads of this process (Linux: /proc/self/task).
    private func threads() -> Int {
        (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task").count) ?? 0
    }

    /// CPU seconds this process has used (user + system).
    private func cpuSeconds() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
    }

    func testARunawayPatternStopsAtTheLimitAndLeavesNothingRunning() throws {
        let before = threads()
        for n in [23, 30, 5000] {
            let start = Date()
            let text = String(repeating: "a", count: n) + "!"
            XCTAssertEqual(BoundedRegex.firstMatch("^(a+)+$", in: text), .limitExceeded)
            XCTAssertEqual(BoundedRegex.firstMatch("^(a+)+$", in: text, syntax: .ecma), .limitExceeded)
            XCTAssertLessThan(Date().timeIntervalSince(start), 2, "\(n)")
        }
        XCTAssertLessThanOrEqual(threads(), before, "a thread was left behind")
        // nothing runs on: the process is idle once the answers are in
        let cpu = cpuSeconds()
        Thread.sleep(forTimeInterval: 1)
        XCTAssertLessThan(cpuSeconds() - cpu, 0.3, "something kept a core busy after the answer")
    }

    func testAnswersAndCompileErrors() throws {
        XCTAssertEqual(BoundedRegex.firstMatch("wor(l)d", in: "hello world"), .found)
        XCTAssertEqual(BoundedRegex.firstMatch("^x", in: "hello"), .notFound)
        XCTAssertEqual(BoundedRegex.firstMatch("(", in: "hello"), .invalid)
        XCTAssertEqual(BoundedRegex.firstMatch("", in: ""), .found)
        XCTAssertThrowsError(try BoundedRegex.compile("(")) { error in
            XCTAssertTrue((error as? BoundedRegex.CompileError)?.message.contains("missing closing parenthesis") == true, "\(error)")
        }
        let r = try BoundedRegex.compile("id=(\\d+)(x)?")
        XCTAssertTrue(r === (try BoundedRegex.compile("id=(\\d+)(x)?")), "compiled once, from the cache")
        guard case .success(let groups?) = r.groups(in: "é id=42;") else { return XCTFail("no match") }
        XCTAssertEqual(groups.map { $0.map(String.init) }, ["id=42", "42", nil])
        // linear work on a large text stays far below the bound
        let big = String(repeating: "abc ", count: 250_000) + "end"
        XCTAssertEqual(BoundedRegex.firstMatch("^(?:[a-z]+ )*end$", in: big), .found)
        XCTAssertEqual(BoundedRegex.firstMatch("end$", in: big, syntax: .ecma), .found)
    }

    /// `matches:` is Unicode-aware PCRE2; schema patterns are ECMA-262 (u flag).
    func testTheTwoSyntaxes() {
        XCTAssertEqual(BoundedRegex.firstMatch("^\\d$", in: "٣"), .found)
        XCTAssertEqual(BoundedRegex.firstMatch("^\\d$", in: "٣", syntax: .ecma), .notFound)
        XCTAssertEqual(BoundedRegex.firstMatch("^\\w$", in: "é", syntax: .ecma), .notFound)
        XCTAssertEqual(BoundedRegex.firstMatch("^\\W$", in: "é", syntax: .ecma), .found)
        for space in ["\u{A0}", "\u{FEFF}", "\u{2003}", "\u{2028}", "\t", "\u{0B}"] {
            XCTAssertEqual(BoundedRegex.firstMatch("^\\s$", in: space, syntax: .ecma), .found, space.unicodeScalars.first!.debugDescription)
            XCTAssertEqual(BoundedRegex.firstMatch("^[\\s]$", in: space, syntax: .ecma), .found)
            XCTAssertEqual(BoundedRegex.firstMatch("^\\S$", in: space, syntax: .ecma), .notFound)
            XCTAssertEqual(BoundedRegex.firstMatch("^[\\S]$", in: space, syntax: .ecma), .notFound)
        }
        for other in ["a", "\u{85}", "\u{180E}", "\u{0}", "😀"] {
            XCTAssertEqual(BoundedRegex.firstMatch("^\\S$", in: other, syntax: .ecma), .found, other.debugDescription)
            XCTAssertEqual(BoundedRegex.firstMatch("^[x\\S]$", in: other, syntax: .ecma), .found, other.debugDescription)
        }
        XCTAssertEqual(BoundedRegex.firstMatch("^abc$", in: "abc\n", syntax: .ecma), .notFound)
        XCTAssertEqual(BoundedRegex.firstMatch("^a.c$", in: "a\u{2028}c", syntax: .ecma), .notFound)
        XCTAssertEqual(BoundedRegex.firstMatch("^a.c$", in: "a😀c", syntax: .ecma), .found)
        XCTAssertEqual(BoundedRegex.firstMatch("^\\u0041\\x42\\u{1F600}$", in: "AB😀", syntax: .ecma), .found)
        XCTAssertEqual(BoundedRegex.firstMatch("^[^]$", in: "\n", syntax: .ecma), .found)
        XCTAssertEqual(BoundedRegex.firstMatch("[]", in: "x", syntax: .ecma), .notFound)
        XCTAssertEqual(BoundedRegex.firstMatch("^[[:a]+$", in: "[:a", syntax: .ecma), .found)
        XCTAssertEqual(BoundedRegex.firstMatch("^\\p{Letter}\\p{gc=Decimal_Number}\\p{Script=Greek}\\P{L}$", in: "é٣α1", syntax: .ecma), .found)
    }

    /// The suite's optional ECMA-262 regex groups (draft 2020-12), every one.
    func testTheSuitesECMARegexTests() throws {
        guard let suite = SchemaTestSuite.locate() else { return XCTFail("JSON-Schema-Test-Suite missing") }
        for file in ["draft2020-12/optional/ecmascript-regex.json", "draft2020-12/optional/non-bmp-regex.json",
                     "draft4/optional/ecmascript-regex.json"] {
            let o = try suite.run(file, dialect: file.hasPrefix("draft4") ? .draft4 : .draft2020, assertFormats: true)
            print("\(file): \(o.passed) of \(o.total)")
            XCTAssertEqual(o.failures, [], file)
            XCTAssertGreaterThan(o.total, 0)
        }
    }

    func testASchemaPatternAtTheLimitIsAViolationNamingIt() throws {
        let s = try JSONSchema(JSONValue.parse(Data(##"{"type":"array","items":{"pattern":"^(a+)+$"},"not":{"items":{"pattern":"^(a+)+$"}}}"##.utf8))!)
        let start = Date()
        let v = s.violations(of: JSONValue.parse(Data(##"["ok", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!"]"##.utf8))!)
        XCTAssertLessThan(Date().timeIntervalSince(start), 2)
        let limit = try XCTUnwrap(v.first { $0.message.contains("exceeded the regex work limit") }, "\(v)")
        XCTAssertEqual(limit.keyword, "pattern")
        XCTAssertEqual(limit.instancePath, "$[1]")
        XCTAssertTrue(limit.message.hasPrefix("pattern ^(a+)+$ exceeded the regex work limit on \"aaaa"), limit.message)
        // patternProperties too, and an answer cut short is never "valid" (not the `not` around it)
        let p = try JSONSchema(JSONValue.parse(Data(##"{"not":{"patternProperties":{"^(a+)+$":false}}}"##.utf8))!)
        let w = p.violations(of: JSONValue.parse(Data(##"{"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!":1}"##.utf8))!)
        XCTAssertEqual(w.first?.keyword, "patternProperties", "\(w)")
        XCTAssertTrue(w.first?.message.contains("exceeded the regex work limit") == true, "\(w)")
    }
}
