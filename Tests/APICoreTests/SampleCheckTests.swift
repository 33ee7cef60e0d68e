import XCTest
@testable import APIJSON
@testable import APITargets
@testable import APIEndpoint
@testable import APITransport
@testable import APIVerdict

final class SampleCheckTests: XCTestCase {
    func testSamplesAreJudgedLikeCheckStub() throws {
        // GIVEN samples that agree, disagree, are marked expectFailure, and are slower than maxTime
        let service = try decodeService("""
            baseURL: http://x
            validate: success
            targets:
              t:
                expect: { maxTime: 1s, headers: { Content-Type: "~json" } }
                sample: { json: { a: 1 } }
                samples:
                  slow: { delay: 2, json: {} }
                  gone: { status: 404, expectFailure: true }
                  html: { body: "<p>" }
              plain:
                sample: { status: 500 }
            """)
        // WHEN judged offline
        let d = SampleCheck.diagnostics(service, workspace: Workspace(variables: [:]))
        // THEN each disagreement is a diagnostic at its sample
        XCTAssertEqual(d.map { "\($0.mark!.line):\($0.mark!.column) \($0.message)" }, [
            "8:13 sample 'slow' of demo.t fails its expectations: took 2000 ms, maxTime is 1000 ms",
            "10:13 sample 'html' of demo.t fails its expectations: header Content-Type is missing",
            "12:13 the sample of demo.plain fails its expectations: status 500 is not accepted by validate: success (200-299)",
        ])
    }

    /// `validate`'s quick verdict (a sample whose `json:` expands to itself judged as a tree,
    /// without a stub) is taken where it may be, and is the verdict the stub's answer gets.
    func testQuickVerdictIsTheStubsVerdict() throws {
        // GIVEN samples that pass and fail every expectation the quick verdict judges, members out of
        // order, numbers of every spelling, strings with escapes, and samples it must leave to the stub
        let service = try decodeService(#"""
            baseURL: http://x
            validate: success
            targets:
              a:
                params: { id: 7 }
                expect: { status: [200, 201], json: { "$.id": 7, "$.b": { ">": 1 }, "$.o.y[1]": "x\u0085\t", "$.n": null }, maxTime: 1s }
                sample: { json: { o: { z: 1, y: [1, "x\u0085\t", é] }, id: 7, b: 2, n: null } }
                samples:
                  off: { status: 201, json: { b: 0.5e1, id: 7.0, o: { y: [0, "x\u0085\t"] }, n: null } }
                  slow: { delay: 2, json: { id: 7 } }
                  gone: { status: 404, expectFailure: true }
                  none: { status: 200 }
                  list: { json: [1, 2] }
                  unsorted: { json: { id: 8, b: -0, o: { y: [{ c: 1, a: [] }, {}] } } }
                  fails: { json: { id: 7, b: 3, o: { y: [0, "x\u0085\t"] } }, expectFailure: true }
                  leading: { json: { id: 01.5 } }
                  template: { json: { id: "{id}" } }
                  dollar: { json: { id: "$7" } }
                  header: { headers: { X-Id: "{id}" }, json: { id: 7 } }
                  text: { body: '{"id": 7}' }
                  error: { error: reset }
                  late: { delay: 99, json: { id: 7 } }
              b:
                timeout: 5s
                sample: { status: 500, json: { big: 1e400, small: 1e-400, neg: -12.5E+2 } }
              c:
                expect: { headers: { X-A: b } }
                sample: { headers: { X-A: b }, json: {} }
            """#)
        let workspace = Workspace(variables: [:]).offline()
        var quick = 0
        for target in service.targets {
            let policy = try workspace.policy(for: target, in: service)
            let bindings = try workspace.bindings(for: target, in: service)
            for (name, sample) in target.allSamples {
                // WHEN judged both ways
                let stub = Workspace.stub(sample, bindings: bindings, captures: [:], file: service.file)
                let slow = Verdict.judge(stub.answer(timeout: policy.timeout), expect: target.expect,
                                         validation: policy.validation, expectFailure: sample.expectFailure)
                let fast = SampleCheck.quickVerdict(sample, target.expect, policy)
                // THEN the quick verdict, where there is one, is the stub's
                let what = "\(target.name) \(name ?? "sample")"
                if let fast {
                    quick += 1
                    XCTAssertEqual(fast, slow, what)
                }
                // and it is given for every sample it may judge, and for none it may not
                let mayNot = ["leading", "template", "dollar", "header", "text", "error", "late"].contains(name ?? "") || target.name == "c"
                XCTAssertEqual(fast == nil, mayNot, what)
            }
        }
        XCTAssertEqual(quick, 9)
    }

    /// A `json:` sample read as a tree without its text: the tree the parser reads from the text.
    func testLiteralJSONValueIsTheParsedText() throws {
        let whole = try JSONPath.parse("$").get()
        let service = try decodeService(#"""
            baseURL: http://x
            targets:
              t:
                sample: { json: { b: [1, -0, 2.50, 1e400, 0.5E-3, "q\"\\\u0001\u009f😀", true, false, null, {}, []], a: { d: 1, c: 2 }, "": x } }
                samples:
                  top: { json: [3, { y: 1, x: 2 }] }
                  scalar: { json: 12345678901234567890 }
                  leading: { json: { n: 01.5 } }
                  brace: { json: { s: "{x}" } }
                  dollar: { json: [ "a$b" ] }
            """#)
        for (name, sample) in service.targets[0].allSamples {
            guard case .json(let value)? = sample.body else { return XCTFail() }
            let parsed = JSONValue.parse(Data(value.jsonText.utf8))
            switch name {
            case "leading"?:
                XCTAssertNil(parsed)  // 01.5 is not JSON's: the text does not parse, nor is a tree made
                XCTAssertNil(value.literalJSONValue(at: whole))
            case "brace"?, "dollar"?:
                XCTAssertNotNil(parsed)
                XCTAssertNil(value.literalJSONValue(at: whole), "a string that may expand: no tree")
            default:
                let tree = try XCTUnwrap(value.literalJSONValue(at: whole), "\(name ?? "sample")")
                XCTAssertEqual(tree, parsed)
                XCTAssertEqual(tree.jsonText, parsed?.jsonText, "members in the parser's order")
                // and what a path finds in the value is what it finds in the parsed text
                for text in ["$", "$.b", "$.b[5]", "$.b[-2]", "$.b[11]", "$.b[*]", "$.b.length()", "$.b[5].length()",
                             "$.a", "$.a.c", "$.a.length()", "$.a[0]", "$['']", "$.zz", "$[0]", "$[-1].x", "$[1][*]", "$[1].y.z"] {
                    let path = try JSONPath.parse(text).get()
                    let found = value.literalJSONValue(at: path), expected = parsed.flatMap(path.evaluate)
                    XCTAssertEqual(found, expected, "\(name ?? "sample") \(text)")
                    XCTAssertEqual(found?.jsonText, expected?.jsonText, "\(name ?? "sample") \(text)")
                }
            }
            XCTAssertEqual(value.isLiteralJSON, value.literalJSONValue(at: whole) != nil)
        }
        // a repeated key (not from YAML, which refuses one): the parser's last value, in the first's place
        let repeated = Value.object([.init(key: "k", value: .number("1")), .init(key: "a", value: .number("2")),
                                     .init(key: "k", value: .array([.number("3")]))])
        let text = try XCTUnwrap(JSONValue.parse(Data(repeated.jsonText.utf8)))
        XCTAssertEqual(repeated.literalJSONValue(at: whole)?.jsonText, text.jsonText)
        for path in ["$.k", "$.k[0]", "$.length()", "$[*]"] {
            let p = try JSONPath.parse(path).get()
            XCTAssertEqual(repeated.literalJSONValue(at: p)?.jsonText, p.evaluate(text)?.jsonText, path)
        }
        var deep = Value.number("1")
        for _ in 0..<JSONParser.maxDepth { deep = .array([deep]) }
        XCTAssertNil(JSONValue.parse(Data(deep.jsonText.utf8)))
        XCTAssertNil(deep.literalJSONValue(at: whole), "nesting the parser refuses")
        XCTAssertFalse(deep.isLiteralJSON)
        guard case .array(let items) = deep else { return XCTFail() }
        XCTAssertEqual(items[0].literalJSONValue(at: whole), JSONValue.parse(Data(items[0].jsonText.utf8)))
    }

    /// The service's policy, made once for the targets without `validate:` or `timeout:` of their
    /// own, is not the policy of a target with either.
    func testTargetsOwnPolicyIsNotTheSharedOne() throws {
        // GIVEN a service's validate: and timeout:, and targets with and without their own, in turn
        let service = try decodeService("""
            baseURL: http://x
            validate: success
            timeout: 1s
            targets:
              own:
                validate: [500]
                sample: { status: 500 }
              plain:
                sample: { status: 500 }
              slowOwn:
                timeout: 5s
                sample: { delay: 2, json: {} }
              slow:
                sample: { delay: 2, json: {} }
              other:
                validate: none
                sample: { status: 404 }
            """)
        // WHEN judged offline
        let d = SampleCheck.diagnostics(service, workspace: Workspace(variables: [:]))
        // THEN each target is judged by its own policy, the others by the service's
        XCTAssertEqual(d.map { "\($0.mark!.line) \($0.message)" }, [
            "9 the sample of demo.plain fails its expectations: status 500 is not accepted by validate: success (200-299)",
            "14 the sample of demo.slow fails its expectations: timed out after 1 s",
        ])
    }

    /// A large service's targets with a schema are judged after the two halves, their diagnostics
    /// where the targets stand: the same as judged one after another.
    func testTargetsWithASchemaKeepTheirPlaceAfterTheHalves() throws {
        // GIVEN 1,200 targets, every hundredth from the 3rd breaking its schema and from the 7th its status
        var yaml = "baseURL: http://x\ntargets:\n"
        for i in 0..<1_200 {
            switch i % 100 {
            case 3: yaml += "  t\(i):\n    expect: { schema: { type: object, required: [name] } }\n    sample: { json: { id: \(i) } }\n"
            case 7: yaml += "  t\(i):\n    expect: { status: 200 }\n    sample: { status: 500, json: { id: \(i) } }\n"
            default: yaml += "  t\(i):\n    expect: { json: { \"$.id\": \(i) } }\n    sample: { json: { id: \(i) } }\n"
            }
        }
        let service = try decodeService(yaml)
        XCTAssertGreaterThanOrEqual(service.targets.count, SampleCheck.bothCoresFrom)
        let workspace = Workspace(variables: [:])
        // WHEN judged in two halves, and one after another
        let halves = SampleCheck.diagnostics(service, workspace: workspace)
        let serial = SampleCheck.diagnostics(service, service.targets.indices, workspace: workspace.offline(), leavingSchemas: false).out
        // THEN both give every failure, in file order
        XCTAssertEqual(halves.count, 24)
        XCTAssertEqual(halves.map(\.message), serial.map(\.message))
        XCTAssertEqual(halves.compactMap(\.mark?.line), serial.compactMap(\.mark?.line))
        XCTAssertEqual(halves.compactMap(\.mark?.line), halves.compactMap(\.mark?.line).sorted())
        XCTAssertEqual(halves.filter { $0.message.contains("schema") }.count, 12)
    }
}
