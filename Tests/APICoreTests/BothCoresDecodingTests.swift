import XCTest
@testable import APIYAML
@testable import APIDiagnostics
@testable import APITargets
@testable import APIEndpoint
@testable import APIVerdict
@testable import APIImport

/// A file of `ServiceDecoder.bothCoresFrom` targets or more is decoded in two halves at once (and,
/// from `SplitParse.minimumSize` bytes, parsed in two halves): targets, problems, warnings and the
/// files it names must come out in file order, as one pass gives them.
final class BothCoresDecodingTests: XCTestCase {
    private let count = 3_000

    private func file(_ entry: (Int) -> String) -> [UInt8] {
        Array(("baseURL: http://127.0.0.1:9\ntargets:\n" + (0..<count).map(entry).joined() + "timeout: 5s\n").utf8)
    }

    private func plain(_ i: Int) -> String {
        "  t\(i):\n    path: /items/\(i)\n    sample: { status: 200, json: { id: \(i) } }\n"
    }

    func testTargetsWarningsAndFilesStayInFileOrder() throws {
        XCTAssertGreaterThanOrEqual(count, ServiceDecoder.bothCoresFrom * 2)
        let bytes = file { i in
            switch i {
            case 10, 2_900: return "  t\(i): { path: /x, method: FETCH }\n"
            case 20, 1_700: return "  t\(i): { path: /x, sample: { file: s\(i).json } }\n"
            default: return self.plain(i)
            }
        }
        XCTAssertGreaterThan(bytes.count, SplitParse.minimumSize)
        let service = try TargetFile.decode(bytes, file: "/tmp/gen.yaml", defaultName: "gen")
        XCTAssertEqual(service.targets.map(\.name), (0..<count).map { "t\($0)" })
        XCTAssertEqual(service.targets.map(\.mark.line), service.targets.map(\.mark.line).sorted())
        XCTAssertEqual(service.timeout, 5)
        let warned = service.targets.filter { !$0.warnings.isEmpty }
        XCTAssertEqual(warned.map(\.name), ["t10", "t2900"])
        XCTAssertEqual(warned.map { $0.warnings.map(\.message) },
                       Array(repeating: ["'FETCH' is not a standard HTTP method; it is sent as written"], count: 2))
        XCTAssertEqual(service.files.map(\.written), ["s20.json", "s1700.json"])
        XCTAssertEqual(service.files.map(\.target), ["t20", "t1700"])
    }

    func testProblemsOfBothHalvesInFileOrder() throws {
        let bytes = file { i in
            switch i {
            case 3, 2_200: return "  t\(i): { pth: /x }\n"
            case 1_400: return "  bad.name: { path: /x }\n"
            case 1_499, 1_500, 1_501: return "  t\(i): { path: /x, timeout: soon }\n"
            default: return self.plain(i)
            }
        }
        XCTAssertThrowsError(try TargetFile.decode(bytes, file: "/tmp/gen.yaml", defaultName: "gen")) { error in
            guard case .invalidInput(let problems) = error as? APIError else { return XCTFail("\(error)") }
            let lines = problems.compactMap(\.mark?.line)
            XCTAssertEqual(lines, lines.sorted())
            XCTAssertEqual(problems.map(\.message), [
                "unknown key 'pth' in target 't3'",
                "target name 'bad.name' may only hold letters, digits, '_' and '-'",
            ] + Array(repeating: problems.first { $0.message.contains("timeout") }?.message ?? "timeout", count: 3) + [
                "unknown key 'pth' in target 't2200'",
            ])
        }
    }

    func testSampleProblemsOfBothHalvesInFileOrder() throws {
        let bytes = file { i in
            switch i {
            case 5, 1_600, 2_999:
                return "  t\(i):\n    path: /x\n    expect: { status: 200 }\n    sample: { status: 500 }\n"
            case 1_499:
                return "  t\(i):\n    path: /x\n    expect: { status: 200 }\n    sample: { status: 200, expectFailure: true }\n"
            default:
                return "  t\(i):\n    path: /x\n    expect: { status: 200, json: { \"$.id\": \(i) } }\n    sample: { status: 200, json: { id: \(i) } }\n"
            }
        }
        let service = try TargetFile.decode(bytes, file: "/tmp/gen.yaml", defaultName: "gen")
        XCTAssertGreaterThanOrEqual(service.targets.count, SampleCheck.bothCoresFrom * 2)
        let problems = SampleCheck.diagnostics(service, workspace: Workspace(variables: [:]))
        XCTAssertEqual(problems.map(\.message), [
            "the sample of gen.t5 fails its expectations: ",
            "the sample of gen.t1499 has expectFailure: true but passes its expectations",
            "the sample of gen.t1600 fails its expectations: ",
            "the sample of gen.t2999 fails its expectations: ",
        ].map { $0.hasSuffix(": ") ? $0 + (problems.first?.message.components(separatedBy: "expectations: ").last ?? "") : $0 })
        let lines = problems.compactMap(\.mark?.line)
        XCTAssertEqual(lines, lines.sorted())
    }
}
