import Foundation
import XCTest
@testable import APIDiagnostics
@testable import APITargets

/// `Catalog`: a folder of target files, `service.target` lookup, and the one-file fast path.
final class CatalogTests: XCTestCase {

    private func unknownTarget(_ name: String, hint: String) -> APIError {
        .invalidInput([Diagnostic(file: nil, mark: nil, message: "unknown target '\(name)'", hint: hint)])
    }

    // MARK: Loading

    func testFilesAreYAMLFilesSortedWithoutHiddenOnes() throws {
        // GIVEN a folder with a .yaml, a .yml, a text file and a hidden .yaml
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("apicli-catalog-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        for name in ["b.yaml", "a.yml", "notes.txt", ".hidden.yaml", "c.yaml.bak"] {
            XCTAssertTrue(FileManager.default.createFile(atPath: dir.appendingPathComponent(name).path, contents: Data()))
        }
        // WHEN listed
        let files = try Catalog.files(in: dir.path)
        // THEN only the visible YAML files, sorted by name
        XCTAssertEqual(files, [dir.appendingPathComponent("a.yml").path, dir.appendingPathComponent("b.yaml").path])
    }

    func testLoadsEveryServiceOfAFolder() throws {
        // GIVEN the catalog fixture: github.yaml and httpbin.yml (named after its file), plus a README
        let dir = Fixtures.path("catalog")
        // WHEN loaded
        let catalog = try Catalog.load(directory: dir)
        // THEN both services, in file order, with their targets
        XCTAssertEqual(catalog.services.map(\.name), ["github", "httpbin"])
        XCTAssertEqual(catalog.services.map(\.file), [dir + "/github.yaml", dir + "/httpbin.yml"])
        XCTAssertEqual(catalog.qualifiedNames, ["github.zen", "github.userProfile", "github.search", "github.createIssue",
                                                "httpbin.get", "httpbin.post"])
    }

    func testLookupFindsServiceAndTarget() throws {
        // GIVEN the catalog fixture
        let catalog = try Catalog.load(directory: Fixtures.path("catalog"))
        // WHEN looking up a qualified name
        let (service, target) = try catalog.lookup("httpbin.post")
        // THEN the service and target match
        XCTAssertEqual(service.name, "httpbin")
        XCTAssertEqual(target.name, "post")
        XCTAssertEqual(target.method, "POST")
    }

    func testUnknownTargetSuggestsTheClosestName() throws {
        // GIVEN the catalog fixture
        let catalog = try Catalog.load(directory: Fixtures.path("catalog"))
        // WHEN looking up typos in the target and in the service
        let targetTypo = expectAPIError { () throws(APIError) in try catalog.lookup("github.zne") }
        let serviceTypo = expectAPIError { () throws(APIError) in try catalog.lookup("gthub.zen") }
        // THEN each suggests the intended name
        XCTAssertEqual(targetTypo, unknownTarget("github.zne", hint: "did you mean 'github.zen'?"))
        XCTAssertEqual(serviceTypo, unknownTarget("gthub.zen", hint: "did you mean 'github.zen'?"))
    }

    func testUnknownTargetWithNothingCloseExplainsTheNameForm() throws {
        // GIVEN the catalog fixture
        let catalog = try Catalog.load(directory: Fixtures.path("catalog"))
        // WHEN looking up a bare word, a far-off qualified name and a service without a target
        let bare = expectAPIError { () throws(APIError) in try catalog.lookup("zen") }
        let far = expectAPIError { () throws(APIError) in try catalog.lookup("nothing.here") }
        let serviceOnly = expectAPIError { () throws(APIError) in try catalog.lookup("github.") }
        // THEN the hint explains what to type
        XCTAssertEqual(bare, unknownTarget("zen", hint: "name a target as service.target; `apicli list` shows them all"))
        XCTAssertEqual(far, unknownTarget("nothing.here", hint: "`apicli list` shows every target"))
        XCTAssertEqual(serviceOnly, unknownTarget("github.", hint: "`apicli list` shows every target"))
    }

    func testDuplicateServiceNamesAcrossFilesAreAnError() {
        // GIVEN two files that both say `service: same`
        let dir = Fixtures.path("duplicate")
        // WHEN loaded
        let error = expectAPIError { () throws(APIError) in try Catalog.load(directory: dir) }
        // THEN the second file is blamed and the first named
        XCTAssertEqual(error, .invalidInput([Diagnostic(file: dir + "/b.yaml", mark: nil,
                                                        message: "service 'same' is also defined in \(dir)/a.yaml",
                                                        hint: "give one of them another service: name")]))
    }

    func testProblemsOfAllFilesAreReportedTogether() {
        // GIVEN two broken files
        let dir = Fixtures.path("broken")
        // WHEN loaded
        let error = expectAPIError { () throws(APIError) in try Catalog.load(directory: dir) }
        // THEN the problems of both come back, file by file
        XCTAssertEqual(error, .invalidInput([
            Diagnostic(file: dir + "/first.yaml", mark: at(1, 1), message: "the target file has no baseURL",
                       hint: "add baseURL: https://api.example.com"),
            Diagnostic(file: dir + "/second.yaml", mark: at(4, 11), message: "unknown key 'pth' in target 'ping'",
                       hint: "did you mean 'path'?"),
        ]))
    }

    func testMissingFolderIsAnErrorWithAHint() {
        // GIVEN a folder that does not exist, and a path that is a file
        let missing = expectAPIError { () throws(APIError) in try Catalog.load(directory: "/nonexistent-dir/targets") }
        let file = Fixtures.path("catalog/github.yaml")
        let notAFolder = expectAPIError { () throws(APIError) in try Catalog.files(in: file) }
        // THEN both say there is no targets folder and how to name one
        let hint = "run from the folder that holds targets/, or pass --targets DIR (or set APICLI_TARGETS)"
        XCTAssertEqual(missing, .invalidInput([Diagnostic(file: nil, mark: nil, message: "no targets folder at '/nonexistent-dir/targets'", hint: hint)]))
        XCTAssertEqual(notAFolder, .invalidInput([Diagnostic(file: nil, mark: nil, message: "no targets folder at '\(file)'", hint: hint)]))
    }

    // MARK: find

    func testFindReadsOnlyTheServicesOwnFile() throws {
        // GIVEN a folder with a good service file and an unrelated broken one
        let dir = Fixtures.path("fastpath")
        XCTAssertNotNil(expectAPIError { () throws(APIError) in try Catalog.load(directory: dir) },
                        "the folder as a whole does not load")
        // WHEN finding a target of the good service
        let (service, target) = try Catalog.find("good.ping", in: dir)
        // THEN it is found without reading the broken file
        XCTAssertEqual(service.name, "good")
        XCTAssertEqual(target.qualifiedName, "good.ping")
        XCTAssertEqual(service.file, dir + "/good.yaml")
    }

    func testFindReportsTheServiceFilesOwnProblems() {
        // GIVEN the broken service's own file (a duplicate target key)
        let dir = Fixtures.path("fastpath")
        // WHEN finding one of its targets
        let error = expectAPIError { () throws(APIError) in try Catalog.find("broken.a", in: dir) }
        // THEN that file's diagnostic comes back
        XCTAssertEqual(error, .invalidInput([Diagnostic(file: dir + "/broken.yaml", mark: at(5, 3), message: "duplicate key 'a'",
                                                        notes: [Diagnostic.Note(message: "first defined here", mark: at(4, 3))])]))
    }

    func testFindDecodesOnlyTheTargetItNeeds() throws {
        // GIVEN a service file with a good target and a broken one
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("apicli-lazy-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        try Data("baseURL: https://api.test\ntargets:\n  good: { path: /g }\n  bad: { pth: /b }\n".utf8)
            .write(to: dir.appendingPathComponent("svc.yaml"))
        // WHEN the good one is found
        let (service, target) = try Catalog.find("svc.good", in: dir.path)
        // THEN only it was decoded, and the broken one does not block it
        XCTAssertEqual(service.targets.map(\.name), ["good"])
        XCTAssertEqual(target.path?.text, "/g")
        // AND the broken one still fails where it is named, and when the folder is loaded
        XCTAssertNotNil(expectAPIError { () throws(APIError) in try Catalog.find("svc.bad", in: dir.path) })
        XCTAssertNotNil(expectAPIError { () throws(APIError) in try Catalog.load(directory: dir.path) })
    }

    func testFindWithATypoInTheTargetSuggestsWithoutReadingOtherFiles() {
        // GIVEN good.yaml defines service `good`, and another file in the folder is broken
        let dir = Fixtures.path("fastpath")
        // WHEN finding a misspelt target of `good`
        let error = expectAPIError { () throws(APIError) in try Catalog.find("good.pnig", in: dir) }
        // THEN the answer is about the name typed, from good.yaml alone: no other file can define
        // `good` (that would be a duplicate), so the broken unrelated file has nothing to add
        XCTAssertEqual(error, unknownTarget("good.pnig", hint: "did you mean 'good.ping'?"))
    }

    func testFindFallsBackToTheFolderWhenTheFileNamesAnotherService() throws {
        // GIVEN api.yaml, which defines service `other`
        let dir = Fixtures.path("renamed")
        // WHEN finding `other.t` (no other.yaml) and `api.t` (api.yaml is not service `api`)
        let (service, target) = try Catalog.find("other.t", in: dir)
        let error = expectAPIError { () throws(APIError) in try Catalog.find("api.t", in: dir) }
        // THEN the folder is searched: the first is found, the second is unknown
        XCTAssertEqual(service.name, "other")
        XCTAssertEqual(target.name, "t")
        XCTAssertEqual(error, unknownTarget("api.t", hint: "`apicli list` shows every target"))
    }

    func testFindInTheCatalogFixture() throws {
        // GIVEN the catalog fixture, where httpbin comes from httpbin.yml
        let dir = Fixtures.path("catalog")
        // THEN both file extensions are found
        XCTAssertEqual(try Catalog.find("github.search", in: dir).1.path?.text, "/search/repositories")
        XCTAssertEqual(try Catalog.find("httpbin.get", in: dir).1.path?.text, "/get")
        XCTAssertEqual(expectAPIError { () throws(APIError) in try Catalog.find("github.zne", in: dir) },
                       unknownTarget("github.zne", hint: "did you mean 'github.zen'?"))
    }
}
