import Foundation
import XCTest

/// `when:` on targets and on `expect:` blocks, and `include:` of files of shared blocks, on the binary.
final class ConditionsAndIncludesTests: FolderTestCase {
    private let stages = """
        baseURL: http://127.0.0.1:9
        targets:
          onCI:
            path: /anything/ci
            when: ${STAGE} == 'ci' && !exists {skip}
          onProd:
            path: /anything/prod
            when: ${STAGE} == 'prod' || ${STAGE} =~ '^prod-'

        """

    func testAFalseWhenSkipsTheTargetWithItsReasonInEveryReport() throws {
        // GIVEN one target whose when: holds under STAGE=ci and one whose when: does not
        let base = try CLI.httpbin()
        let dir = try folder(["stages.yaml": stages])
        let json = dir.appendingPathComponent("r.json"), junit = dir.appendingPathComponent("r.xml")
        let html = dir.appendingPathComponent("r.html")
        // WHEN both are checked against httpbin
        let r = try CLI.run(["check", "--targets", dir.path, "--base-url", base, "--json", json.path, "--junit", junit.path,
                             "--report-html", html.path], env: ["STAGE": "ci"])
        // THEN the first is sent and passes, the second is skipped with the condition as its reason
        XCTAssertEqual(r.code, 0, r.stderr)
        XCTAssertEqual(CheckSupport.normalized(r.stdout), """
            PASS stages.onCI 200 T ms
            SKIP stages.onProd when: ${STAGE} == 'prod' || ${STAGE} =~ '^prod-' is false

            1 passed, 0 failed, 1 skipped

            """)
        let results = try XCTUnwrap(try CheckSupport.report(json)["results"] as? [[String: Any]])
        XCTAssertEqual(results.map { $0["outcome"] as? String }, ["passed", "skipped"])
        XCTAssertEqual(results[1]["skipReason"] as? String, "when: ${STAGE} == 'prod' || ${STAGE} =~ '^prod-' is false")
        XCTAssertEqual((results[1]["attempts"] as? [Any])?.count ?? 0, 0, "a skipped target is not sent")
        let xml = try String(contentsOf: junit, encoding: .utf8)
        XCTAssertTrue(xml.contains("<skipped message=\"when: ${STAGE} == &apos;prod&apos; || ${STAGE} =~ &apos;^prod-&apos; is false\"/>")
                      || xml.contains("<skipped message=\"when: ${STAGE} == 'prod' || ${STAGE} =~ '^prod-' is false\"/>"), xml)
        XCTAssertTrue(try String(contentsOf: html, encoding: .utf8).contains("when: ${STAGE} == &#39;prod&#39;"))

        // WHEN the stage is prod-eu and -p skip is given: the other way round, and the regex decides
        let prod = try CLI.run(["check", "--targets", dir.path, "--base-url", base, "-p", "skip=1"], env: ["STAGE": "prod-eu"])
        XCTAssertEqual(prod.code, 0, prod.stderr)
        XCTAssertEqual(CheckSupport.normalized(prod.stdout), """
            SKIP stages.onCI when: ${STAGE} == 'ci' && !exists {skip} is false
            PASS stages.onProd 200 T ms

            1 passed, 0 failed, 1 skipped

            """)
    }

    func testCallOfASkippedTargetSendsNothingAndSaysWhy() throws {
        // GIVEN a target whose when: is false, at a port where nothing listens
        let dir = try folder(["stages.yaml": stages])
        // WHEN it is called
        let r = try CLI.run(["call", "stages.onProd", "--targets", dir.path], env: ["STAGE": "ci"])
        // THEN nothing is sent (no connection error), nothing on stdout, the reason on stderr, exit 0
        XCTAssertEqual(r.code, 0, r.stderr)
        XCTAssertEqual(r.stdout, "")
        XCTAssertEqual(r.stderr, "apicli: stages.onProd skipped: when: ${STAGE} == 'prod' || ${STAGE} =~ '^prod-' is false\n")
        // AND record of it sends nothing and leaves the file as it was
        let before = try String(contentsOf: dir.appendingPathComponent("stages.yaml"), encoding: .utf8)
        let record = try CLI.run(["record", "stages.onProd", "--targets", dir.path], env: ["STAGE": "ci"])
        XCTAssertEqual(record.code, 0, record.stderr)
        XCTAssertEqual(record.stderr, "apicli: stages.onProd skipped: when: ${STAGE} == 'prod' || ${STAGE} =~ '^prod-' is false\n")
        XCTAssertEqual(try String(contentsOf: dir.appendingPathComponent("stages.yaml"), encoding: .utf8), before)
        // AND show prints the condition, marked false
        let show = try CLI.run(["show", "stages.onProd", "--targets", dir.path], env: ["STAGE": "ci"])
        XCTAssertTrue(show.stdout.contains("when      ${STAGE} == 'prod' || ${STAGE} =~ '^prod-'  (false: skipped)\n"), show.stdout)
        // AND with the condition true it is sent (and meets the closed port)
        let sent = try CLI.run(["call", "stages.onProd", "--targets", dir.path], env: ["STAGE": "prod"])
        XCTAssertEqual(sent.code, 3, sent.stderr)
    }

    func testAConditionalExpectBlockIsJudgedOnlyWhenItsConditionHolds() throws {
        // GIVEN an expect: list whose second block applies only to id 1
        let base = try CLI.httpbin()
        let dir = try folder(["echo.yaml": """
            baseURL: http://127.0.0.1:9
            targets:
              byId:
                path: /anything
                params: { id: "5" }
                task: { query: { id: "{id}" } }
                expect:
                  - status: 200
                  - when: "{id} == '1'"
                    json: { "$.args.id": "one" }

            """])
        // WHEN it is checked with id 1 (the block holds) and with the default 5 (it does not)
        let one = try CLI.run(["check", "--targets", dir.path, "--base-url", base, "-p", "id=1"])
        let five = try CLI.run(["check", "--targets", dir.path, "--base-url", base])
        // THEN only the first run judges $.args.id
        XCTAssertEqual(one.code, 1, one.stderr)
        XCTAssertTrue(one.stdout.contains("FAIL  echo.byId") && one.stdout.contains("$.args.id is \"1\", expected \"one\""), one.stdout)
        XCTAssertEqual(five.code, 0, five.stdout + five.stderr)
        XCTAssertTrue(five.stdout.hasPrefix("PASS  echo.byId"), five.stdout)
    }

    func testIncludedBlocksMergeUnderTheIncludingFilesOwnKeys() throws {
        // GIVEN a service that includes common headers, a target that includes auth, headers and
        // expectations, and writes one header of its own that the include also has
        let dir = try folder([
            "svc.yaml": """
                baseURL: http://127.0.0.1:9
                include: shared/common.inc.yaml
                targets:
                  t:
                    include: [shared/auth.inc.yaml]
                    headers: { X-Own: mine }
                    sample: { status: 200, headers: { Content-Type: text/plain }, body: hi }

                """,
            "shared/common.inc.yaml": "headers: { X-Common: c }\n",
            "shared/auth.inc.yaml": """
                auth: { bearer: "${TOKEN}" }
                headers: { X-Own: theirs, X-Inc: i }
                expect: { status: 200, headers: { Content-Type: "~json" } }

                """,
        ])
        // WHEN the request is shown and the sample checked
        let show = try CLI.run(["call", "svc.t", "--dry-run", "--targets", dir.path], env: ["TOKEN": "s3cret"])
        let check = try CLI.run(["check", "--stub", "--targets", dir.path], env: ["TOKEN": "s3cret"])
        // THEN the headers add up (the target's own X-Own wins), the auth is included, and so is the expectation
        XCTAssertEqual(show.code, 0, show.stderr)
        XCTAssertEqual(show.stdout.split(separator: "\n").filter { $0.hasPrefix("X-") || $0.hasPrefix("Authorization") }, [
            "X-Common: c", "X-Inc: i", "X-Own: mine", "Authorization: ••••",
        ])
        XCTAssertEqual(check.code, 1, check.stderr)
        XCTAssertTrue(check.stdout.contains("header Content-Type is \"text/plain\", expected it to contain \"json\""), check.stdout)
        // AND the files of shared blocks are no service files: validating the folder, or naming them,
        // finds only the sample's problem with the included expectation
        let folderRun = try CLI.run(["validate", "--targets", "."], cwd: dir)
        let named = try CLI.run(["validate", "svc.yaml", "shared/common.inc.yaml", "shared/auth.inc.yaml"], cwd: dir)
        for run in [folderRun, named] {
            XCTAssertEqual(run.code, 2)
            XCTAssertEqual(run.stderr.split(separator: "\n").filter { $0.contains(": error: ") }.map { $0.replacingOccurrences(of: "./", with: "") }, [
                "svc.yaml:7:13: error: the sample of svc.t fails its expectations: header Content-Type is \"text/plain\", expected it to contain \"json\"",
            ])
        }
    }

    func testAnIncludeCycleIsRefusedNamingTheChain() throws {
        let dir = try folder([
            "svc.yaml": "baseURL: http://127.0.0.1:9\ntargets:\n  t:\n    include: a.inc.yaml\n",
            "a.inc.yaml": "headers: { A: a }\ninclude: b.inc.yaml\n",
            "b.inc.yaml": "include: a.inc.yaml\n",
        ])
        let r = try CLI.run(["validate", "--targets", "."], cwd: dir)
        XCTAssertEqual(r.code, 2)
        XCTAssertEqual(r.stderr, """
            ./b.inc.yaml:1:10: error: include: 'a.inc.yaml' makes a cycle: ./svc.yaml → ./a.inc.yaml → ./b.inc.yaml → ./a.inc.yaml
              1 | include: a.inc.yaml
                |          ^
                hint: remove one of these include: entries

            """)
    }

    func testPathsOutOfTheTargetsFolderAreRefused() throws {
        // GIVEN includes of ../, of an absolute path, and of a symbolic link that leads out
        let outside = try folder(["secret.inc.yaml": "headers: { X-Stolen: yes }\n"])
        let dir = try folder([
            "svc.yaml": """
                baseURL: http://127.0.0.1:9
                targets:
                  up:
                    include: ../outside.inc.yaml
                  absolute:
                    include: \(outside.path)/secret.inc.yaml
                  linked:
                    include: shared/link.inc.yaml
                  missing:
                    include: shared/none.inc.yaml
                  named:
                    include: shared/service.yaml

                """,
        ])
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("shared"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: dir.appendingPathComponent("shared/link.inc.yaml").path,
                                                   withDestinationPath: outside.appendingPathComponent("secret.inc.yaml").path)
        // WHEN the folder is validated
        let r = try CLI.run(["validate", "svc.yaml"], cwd: dir)
        // THEN each is exit 2 at its line and column
        XCTAssertEqual(r.code, 2)
        let errors = r.stderr.split(separator: "\n").filter { $0.contains(": error: ") }
        XCTAssertEqual(errors.count, 5, r.stderr)
        XCTAssertEqual(errors[0], "svc.yaml:4:14: error: include: '../outside.inc.yaml' leaves the targets folder (..)")
        XCTAssertEqual(errors[1], "svc.yaml:6:14: error: include: '\(outside.path)/secret.inc.yaml' is an absolute path; included files are inside the targets folder")
        XCTAssertTrue(errors[2].hasPrefix("svc.yaml:8:14: error: include: 'shared/link.inc.yaml' leads outside the targets folder (through a symbolic link"), String(errors[2]))
        XCTAssertEqual(errors[3], "svc.yaml:10:14: error: include: 'shared/none.inc.yaml' is not there (shared/none.inc.yaml)")
        XCTAssertEqual(errors[4], "svc.yaml:12:14: error: include: 'shared/service.yaml' is not a file of shared blocks: their names end in .inc.yaml")
        XCTAssertFalse(r.stderr.contains("X-Stolen"))
    }

    func testProblemsInsideAnIncludedFileAreReportedAtItsOwnLines() throws {
        let dir = try folder([
            "svc.yaml": "baseURL: http://127.0.0.1:9\ntargets:\n  t:\n    include: shared/bad.inc.yaml\n  u:\n    include: shared/list.inc.yaml\n",
            "shared/bad.inc.yaml": "headers: { A: a }\nexpect: { status: 2000 }\npath: /x\n",
            "shared/list.inc.yaml": "- a\n",
        ])
        let r = try CLI.run(["validate", "svc.yaml"], cwd: dir)
        XCTAssertEqual(r.code, 2)
        XCTAssertEqual(r.stderr.split(separator: "\n").filter { $0.contains(": error: ") }, [
            "shared/bad.inc.yaml:3:1: error: unknown key 'path' in a file of shared blocks (included at svc.yaml:4:14)",
            "shared/bad.inc.yaml:2:19: error: expect status '2000' is not a status code (100-599) or a class like 2xx",
            "shared/list.inc.yaml:1:1: error: a file of shared blocks (included at svc.yaml:6:14) must be a mapping, not a list",
        ])
    }

    func testASyntaxErrorInWhenIsExit2AtItsColumn() throws {
        let dir = try folder(["svc.yaml": """
            baseURL: http://127.0.0.1:9
            targets:
              a:
                when: ${ENV} = 'x'
              b:
                expect:
                  - when: "exists {id} && ENV == 'x'"
                    status: 200

            """])
        let r = try CLI.run(["validate", "svc.yaml"], cwd: dir)
        XCTAssertEqual(r.code, 2)
        XCTAssertEqual(r.stderr, """
            svc.yaml:4:18: error: when: expected ==, != or =~ before '= 'x''
              4 |     when: ${ENV} = 'x'
                |                  ^
                hint: a test is exists {name}, A == B, A != B or A =~ 'regex'
            svc.yaml:7:31: error: when: 'ENV' is not a value
              7 |       - when: "exists {id} && ENV == 'x'"
                |                               ^
                hint: write 'ENV' (quoted) for text, ${ENV} for an environment variable or {ENV} for a placeholder
            2 errors

            """)
    }

    func testHostileConditionsAreBoundedNotTrapped() throws {
        // GIVEN conditions nested 5,000 deep, 40 levels of !, and a very long one
        let deep = String(repeating: "(", count: 5000)
        let nots = String(repeating: "!", count: 40) + "exists {x}"
        let long = Array(repeating: "{a} == '1'", count: 200).joined(separator: " || ")
        let dir = try folder(["svc.yaml": """
            baseURL: http://127.0.0.1:9
            targets:
              a: { when: "\(deep)" }
              b: { when: "\(nots)" }
              c: { when: "\(long)" }
              d: { when: "{a} =~ '('" }

            """])
        // WHEN it is validated
        let r = try CLI.run(["validate", "svc.yaml"], cwd: dir, timeout: 10)
        // THEN each is a clear error, fast
        XCTAssertEqual(r.code, 2, r.stderr)
        XCTAssertEqual(r.stderr.split(separator: "\n").filter { $0.contains(": error: ") }.map { $0.split(separator: ":")[1...2].joined(separator: ":") + ":" + ($0.components(separatedBy: "error: ").last ?? "") }, [
            "3:15:when: the condition is 5000 characters long; at most 1024 are read",
            "4:47:when: the condition nests deeper than 32 levels of ( and !",
            "5:15:when: the condition is 2796 characters long; at most 1024 are read",
            "6:22:when: '(' is not a valid regular expression: missing closing parenthesis (at offset 1)",
        ])
    }

    func testAConditionReadsACaptureOfANeedAndASkippedNeedFailsItsDependent() throws {
        // GIVEN a target that captures a value, one whose when: reads it, and one that needs a skipped target
        let base = try CLI.httpbin()
        let dir = try folder(["flow.yaml": """
            baseURL: http://127.0.0.1:9
            targets:
              first:
                path: /anything
                task: { query: { mode: fast } }
                capture: { mode: { json: "$.args.mode" } }
              fastOnly:
                path: /anything/fast
                needs: first
                when: "{mode} == 'fast'"
              slowOnly:
                path: /anything/slow
                needs: first
                when: "{mode} == 'slow'"
              never:
                path: /anything/never
                when: ${NEVER} == 'yes'
              afterNever:
                path: /anything/{x}
                needs: never

            """])
        // WHEN they are checked
        let r = try CLI.run(["check", "--targets", dir.path, "--base-url", base])
        // THEN the capture decides, and the dependent of the skipped target fails as a dependency
        XCTAssertEqual(r.code, 1, r.stderr)
        let lines = CheckSupport.normalized(r.stdout).split(separator: "\n").prefix(5).map(String.init)
        XCTAssertEqual(lines, [
            "PASS flow.first 200 T ms",
            "PASS flow.fastOnly 200 T ms",
            "SKIP flow.slowOnly when: {mode} == 'slow' is false",
            "SKIP flow.never when: ${NEVER} == 'yes' is false",
            "FAIL flow.afterNever --- - needs: flow.never, which it needs, is skipped (when: ${NEVER} == 'yes' is false); give this target the same when:",
        ])
    }

    func testLoadLeavesOutATargetWhoseConditionIsFalse() throws {
        // GIVEN a target for CI and one for prod
        let base = try CLI.httpbin()
        let dir = try folder(["stages.yaml": stages])
        let json = dir.appendingPathComponent("load.json")
        // WHEN a load runs under STAGE=ci, then under a stage neither takes
        let r = try CLI.run(["load", "--targets", dir.path, "--base-url", base, "--requests", "3", "--json", json.path],
                            env: ["STAGE": "ci"])
        let none = try CLI.run(["load", "--targets", dir.path, "--base-url", base, "--requests", "3", "-q"], env: ["STAGE": "dev"])
        // THEN only the CI target is sent, the other said skipped; with none left it is exit 2
        XCTAssertEqual(r.code, 0, r.stderr)
        XCTAssertTrue(r.stderr.contains("apicli: left out stages.onProd: when: ${STAGE} == 'prod' || ${STAGE} =~ '^prod-' is false\n"), r.stderr)
        let report = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(contentsOf: json)) as? [String: Any])
        XCTAssertEqual((report["targets"] as? [[String: Any]])?.map { $0["name"] as? String }, ["stages.onCI"])
        XCTAssertEqual(none.code, 2)
        XCTAssertTrue(none.stderr.contains("nothing to load: every selected target is left out (stages.onCI: when: ${STAGE} == 'ci' && !exists {skip} is false)"), none.stderr)
    }

    func testValidateOfTheGlobChecksAFolderOfSharedBlocksWithoutMisreadingNestedPaths() throws {
        // GIVEN shared blocks in a folder, one including another by its path from the targets folder
        let dir = try folder([
            "svc.yaml": "baseURL: http://127.0.0.1:9\ntargets:\n  t:\n    include: shared/a.inc.yaml\n",
            "shared/a.inc.yaml": "include: shared/b.inc.yaml\nheaders: { A: a }\n",
            "shared/b.inc.yaml": "headers: { B: b }\n",
        ])
        // WHEN the folder's entries are named as `validate targets/*` names them
        let r = try CLI.run(["validate", "shared", "svc.yaml"], cwd: dir)
        let show = try CLI.run(["show", "svc.t", "--targets", "."], cwd: dir)
        // THEN both pass, and the nested include is read from the targets folder
        XCTAssertEqual(r.code, 0, r.stderr)
        XCTAssertEqual(show.stdout.split(separator: "\n").filter { $0.hasPrefix("A:") || $0.hasPrefix("B:") }, ["B: b", "A: a"])
        // AND a mistake in the folder's file is found there
        try Data("headers: [1]\n".utf8).write(to: dir.appendingPathComponent("shared/b.inc.yaml"))
        let bad = try CLI.run(["validate", "shared"], cwd: dir)
        XCTAssertEqual(bad.code, 2)
        XCTAssertTrue(bad.stderr.hasPrefix("shared/b.inc.yaml:1:10: error: the shared headers must be a mapping, not a list"), bad.stderr)
    }

    func testAVariableNamedLikeACaptureIsAWarning() throws {
        let dir = try folder(["svc.yaml": """
            baseURL: http://127.0.0.1:9
            targets:
              login: { path: /login, capture: { token: { json: "$.t" } } }
              me: { path: /me, needs: login, when: "exists ${token} && ${HOME} != ''" }

            """])
        let r = try CLI.run(["validate", "svc.yaml"], cwd: dir)
        XCTAssertEqual(r.code, 0, r.stderr)
        XCTAssertEqual(r.stderr, """
            svc.yaml:4:40: warning: when: ${token} reads the environment variable token, not the capture {token}
              4 |   me: { path: /me, needs: login, when: "exists ${token} && ${HOME} != ''" }
                |                                        ^
                hint: write {token} for the placeholder value

            """)
    }
}
