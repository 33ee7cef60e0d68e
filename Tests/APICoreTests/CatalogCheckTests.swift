import Foundation
import XCTest
@testable import APIYAML
@testable import APIDiagnostics
@testable import APITargets
@testable import APIEndpoint
@testable import APIVerdict

/// `CatalogCheck.run`: what `apicli validate` finds in a set of target files.
final class CatalogCheckTests: TemporaryFolderTestCase {
    private func run(_ files: [String: String]) throws -> (services: [Service], problems: [String]) {
        for (name, text) in files { try write(name, text) }
        var trees: [Node]? = []
        let workspace = Workspace(Workspace.Options(directory: dir.path), variables: [:])
        let (services, problems) = CatalogCheck.run(files: files.keys.sorted().map { dir.appendingPathComponent($0).path },
                                                    workspace: workspace, keeping: &trees)
        XCTAssertEqual(trees?.count, files.count)
        return (services, problems.map { "\($0.mark.map { "\($0.line):\($0.column)" } ?? "-") \($0.message)" })
    }

    func testEveryKindOfProblemOncePerPlace() throws {
        let (services, problems) = try run(["api.yaml": """
            baseURL: http://127.0.0.1:9
            targets:
              sampled: { sample: { file: no/such/file.json } }
              wrong: { expect: { status: 200 }, sample: { status: 500 } }
              lost: { needs: [nothing] }
              fine: { sample: { body: ok } }
            """])
        XCTAssertEqual(services.map(\.name), ["api"])
        // the missing sample file is found by the file check and by the stub: said once
        XCTAssertEqual(problems.filter { $0.contains("no/such/file.json") }.count, 1, "\(problems)")
        XCTAssertTrue(problems.contains { $0.hasPrefix("4:") && $0.contains("fails its expectations") }, "\(problems)")
        XCTAssertTrue(problems.contains { $0.contains("nothing") }, "\(problems)")
        XCTAssertFalse(problems.contains { $0.contains("api.fine") }, "\(problems)")
    }

    func testCleanFilesHaveNoProblems() throws {
        let (services, problems) = try run(["a.yaml": "baseURL: http://x\ntargets:\n  t: { sample: { body: ok } }\n",
                                            "b.yaml": "baseURL: http://y\ntargets:\n  u: { needs: [a.t] }\n"])
        XCTAssertEqual(services.count, 2)
        XCTAssertEqual(problems, [])
    }
}
