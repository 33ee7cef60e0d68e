import XCTest
@testable import APIYAML
@testable import APITargets
@testable import APIDiagnostics

/// `when:` conditions: the grammar, what absent values mean, and the bounds.
final class ConditionTests: XCTestCase {
    private func holds(_ text: String, _ placeholders: [String: String] = [:], env: [String: String] = [:],
                       file: StaticString = #filePath, line: UInt = #line) -> Bool? {
        switch ConditionParser.parse(text) {
        case .success(let c): return c.holds(in: ConditionValues(placeholders: placeholders, environment: env))
        case .failure(let f):
            XCTFail("\(text): \(f.message)", file: file, line: line)
            return nil
        }
    }

    func testComparisonsPresenceAndRegex() {
        XCTAssertEqual(holds("${ENV} == 'prod'", env: ["ENV": "prod"]), true)
        XCTAssertEqual(holds("${ENV} != \"prod\"", env: ["ENV": "prod"]), false)
        XCTAssertEqual(holds("{id} == 42", ["id": "42"]), true)
        XCTAssertEqual(holds("{id} =~ '^[0-9]+$'", ["id": "42"]), true)
        XCTAssertEqual(holds("{id} =~ '^[0-9]+$'", ["id": "4x"]), false)
        XCTAssertEqual(holds("exists {id}", ["id": ""]), true)
        XCTAssertEqual(holds("exists${ID}", env: ["ID": "1"]), true)
        XCTAssertEqual(holds("!(exists ${ID})", env: ["ID": "1"]), false)
        XCTAssertEqual(holds("'it\\'s' == {q}", ["q": "it's"]), true)
    }

    func testAnAbsentValueIsAbsentNotAnError() {
        XCTAssertEqual(holds("exists {id}"), false)
        XCTAssertEqual(holds("!exists ${TOKEN}"), true)
        XCTAssertEqual(holds("{id} == ''"), false)
        XCTAssertEqual(holds("{id} != 'x'"), true)
        XCTAssertEqual(holds("{a} == {b}"), true)
        XCTAssertEqual(holds("{id} =~ '.*'"), false)
    }

    func testAndBindsTighterThanOrAndParenthesesAndNotGroup() {
        // a || b && c is a || (b && c)
        XCTAssertEqual(holds("1 == 1 || 1 == 2 && 1 == 2"), true)
        XCTAssertEqual(holds("(1 == 1 || 1 == 2) && 1 == 2"), false)
        XCTAssertEqual(holds("!(1 == 2) && !!exists {a}", ["a": "x"]), true)
        XCTAssertEqual(holds("false"), false)
        XCTAssertEqual(holds("true && !false"), true)
        XCTAssertEqual(holds("false || exists {a}", ["a": "x"]), true)
    }

    func testMistakesNameTheirOffset() {
        let cases: [(String, Int, String)] = [
            ("${ENV} = 'x'", 7, "expected ==, != or =~ before '= 'x''"),
            ("ENV == 'x'", 0, "'ENV' is not a value"),
            ("{a} == 'x", 7, "unterminated text: no closing '"),
            ("{a} =~ {b}", 7, "=~ takes a quoted regular expression on its right"),
            ("({a} == 'x'", 11, "expected ')'"),
            ("{a b} == 'x'", 0, "'{a b}' is not a placeholder name"),
            ("{a} == 'x' 'y'", 11, "unexpected ''y'' after a whole condition"),
            ("", 0, "expected a value at the end of the condition"),
        ]
        for (text, offset, message) in cases {
            guard case .failure(let f) = ConditionParser.parse(text) else { XCTFail("accepted: \(text)"); continue }
            XCTAssertEqual(f.message, message, text)
            XCTAssertEqual(f.offset, offset, text)
        }
    }

    func testLengthAndNestingAreBounded() {
        let deep = String(repeating: "(", count: 100_000) + "1 == 1" + String(repeating: ")", count: 100_000)
        guard case .failure(let long) = ConditionParser.parse(deep) else { return XCTFail("accepted") }
        XCTAssertTrue(long.message.hasPrefix("the condition is 200006 characters long"), long.message)
        let nested = String(repeating: "(", count: 33) + "1 == 1" + String(repeating: ")", count: 33)
        guard case .failure(let f) = ConditionParser.parse(nested) else { return XCTFail("accepted") }
        XCTAssertEqual(f.message, "the condition nests deeper than 32 levels of ( and !")
        let fine = String(repeating: "(", count: 32) + "1 == 1" + String(repeating: ")", count: 32)
        XCTAssertEqual(holds(fine), true)
    }

    func testExpectBlocksMergeInOrderWhenTheirConditionHolds() throws {
        let yaml = """
            baseURL: http://127.0.0.1:9
            targets:
              t:
                expect:
                  - { status: 200, headers: { A: a }, json: { "$.x": 1 } }
                  - when: "{v} == '2'"
                    status: 201
                    json: { "$.x": 2, "$.y": 3 }

            """
        let service = try TargetFile.decode(Array(yaml.utf8), file: "t.yaml", defaultName: "t")
        let target = try XCTUnwrap(service.targets.first)
        XCTAssertEqual(target.expect?.status, [.code(200)])
        XCTAssertEqual(target.conditionalExpect.count, 1)
        let off = target.expectations(with: ConditionValues(placeholders: ["v": "1"], environment: [:]))
        XCTAssertEqual(off, target.expect)
        let on = try XCTUnwrap(target.expectations(with: ConditionValues(placeholders: ["v": "2"], environment: [:])))
        XCTAssertEqual(on.status, [.code(201)])
        XCTAssertEqual(on.headers.map(\.name), ["A"])
        XCTAssertEqual(on.json.count, 2)
        XCTAssertEqual(on.json.first?.comparisons, [.compare(.equal, .number("2"))])
    }
}

/// `include:`'s merge rules, decoded from files in a temporary folder.
final class IncludeMergeTests: XCTestCase {
    /// A fresh folder, removed when the test ends.
    private func folder() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("apicli-inc-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: dir) }
        return dir
    }

    func testOwnKeysWinLaterIncludesWinAndTheServicesExpectSitsUnderEveryTargets() throws {
        let dir = try folder()
        let files = [
            "svc.yaml": """
                baseURL: http://127.0.0.1:9
                include: base.inc.yaml
                timeout: 5
                targets:
                  t:
                    include: [one.inc.yaml, two.inc.yaml]
                    headers: { X-Own: own }
                    expect: { json: { "$.own": 1 } }
                  plain: { path: /p }

                """,
            "base.inc.yaml": "timeout: 9\nvalidate: success\nexpect: { status: 200, headers: { X-Base: b } }\n",
            "one.inc.yaml": "headers: { X-Own: one, X-One: one }\ntimeout: 1\nexpect: { status: 201 }\n",
            "two.inc.yaml": "timeout: 2\nauth: { bearer: two }\n",
        ]
        for (name, text) in files { try Data(text.utf8).write(to: dir.appendingPathComponent(name)) }
        let service = try TargetFile.load(dir.appendingPathComponent("svc.yaml").path)
        // The service's own timeout wins over the included one; validate comes from the include.
        XCTAssertEqual(service.timeout, 5)
        XCTAssertEqual(service.validation, .success)
        let t = try XCTUnwrap(service.target(named: "t"))
        XCTAssertEqual(t.headers.map { "\($0.name): \($0.value.text)" }, ["X-One: one", "X-Own: own"])
        XCTAssertEqual(t.timeout, 2, "of a list, the later file wins")
        if case .bearer? = t.auth {} else { XCTFail("auth not included: \(String(describing: t.auth))") }
        // expect: the target's own over its includes' over the service's included one
        XCTAssertEqual(t.expect?.status, [.code(201)])
        XCTAssertEqual(t.expect?.headers.map(\.name), ["X-Base"])
        XCTAssertEqual(t.expect?.json.count, 1)
        let plain = try XCTUnwrap(service.target(named: "plain"))
        XCTAssertEqual(plain.expect?.status, [.code(200)])
        XCTAssertNil(plain.timeout)
    }
}

extension IncludeMergeTests {
    func testAChainOfEightFilesIsFollowedAndANinthIsRefused() throws {
        let dir = try folder()
        func write(_ name: String, _ text: String) throws { try Data(text.utf8).write(to: dir.appendingPathComponent(name)) }
        // f1 includes f2 … f8 includes f9: the service's include is the first of nine
        for i in 1...9 { try write("f\(i).inc.yaml", "headers: { X-F\(i): \"\(i)\" }\n" + (i < 9 ? "include: f\(i + 1).inc.yaml\n" : "")) }
        try write("svc.yaml", "baseURL: http://127.0.0.1:9\ntargets:\n  t: { include: f1.inc.yaml }\n  u: { include: f2.inc.yaml }\n")
        XCTAssertThrowsError(try TargetFile.load(dir.appendingPathComponent("svc.yaml").path)) { error in
            guard case .invalidInput(let d) = error as? APIError else { return XCTFail("\(error)") }
            XCTAssertEqual(d.count, 1)
            XCTAssertTrue(d[0].message.hasPrefix("include: 'f9.inc.yaml' is 9 includes deep; at most 8 are followed: "), d[0].message)
            XCTAssertTrue(d[0].file?.hasSuffix("f8.inc.yaml") == true)
        }
        // From f2, eight files: all followed.
        try write("svc.yaml", "baseURL: http://127.0.0.1:9\ntargets:\n  u: { include: f2.inc.yaml }\n")
        let u = try XCTUnwrap(try TargetFile.load(dir.appendingPathComponent("svc.yaml").path).target(named: "u"))
        XCTAssertEqual(u.headers.count, 8)
    }
}

extension IncludeMergeTests {
    func testARefusalInsideAnIncludedFileNamesTheChain() throws {
        let dir = try folder()
        try Data("include: ../up.inc.yaml\n".utf8).write(to: dir.appendingPathComponent("a.inc.yaml"))
        try Data("baseURL: http://127.0.0.1:9\ntargets:\n  t: { include: a.inc.yaml }\n".utf8).write(to: dir.appendingPathComponent("svc.yaml"))
        let svc = dir.appendingPathComponent("svc.yaml").path
        XCTAssertThrowsError(try TargetFile.load(svc)) { error in
            guard case .invalidInput(let d) = error as? APIError else { return XCTFail("\(error)") }
            XCTAssertEqual(d.map(\.message), ["include: '../up.inc.yaml' leaves the targets folder (..) (included through \(svc) → \(dir.path)/a.inc.yaml)"])
            XCTAssertEqual(d.first?.mark, Mark(line: 1, column: 10))
        }
    }
}
