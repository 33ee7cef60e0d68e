import XCTest
@testable import APISupport
@testable import APITargets
@testable import APIEndpoint
@testable import APITransport
@testable import APIRecord
@testable import APIImport
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `record` with a side file: both files are written under temporary names before either is
/// renamed, so a target file that cannot be written leaves the side file as it was.
final class RecorderWriteTests: XCTestCase {
    private var folder = ""

    override func setUpWithError() throws {
        folder = NSTemporaryDirectory() + "apicli-recorder-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    }

    override func tearDown() {
        try? FileManager.default.removeItem(atPath: folder)
    }

    private static let text = """
        # a target file long enough that a 64-byte file size limit stops its rewrite
        baseURL: http://127.0.0.1:9
        targets:
          blob:
            path: /bytes/3
            doc: a binary body, recorded to a side file next to this file

        """

    private let binary = RecordedSample(Response(status: 200, headers: [HeaderField("Content-Type", "application/octet-stream")],
                                                 body: Data([0xFF, 0xFE, 0x00]), duration: 0), options: .init())

    private func load() throws -> (Service, Target, String) {
        let file = folder + "/svc.yaml"
        let service = try TargetFile.load(file)
        let target = try XCTUnwrap(service.target(named: "blob"))
        let side = folder + "/" + Recorder.sideFile(service: service.name, target: "blob", name: nil, ext: "bin")
        return (service, target, side)
    }

    func testWritesTheSideFileAndTheTargetFile() throws {
        try Data(Self.text.utf8).write(to: URL(fileURLWithPath: folder + "/svc.yaml"))
        let (service, target, side) = try load()
        XCTAssertEqual(try Recorder.write(binary, service: service, target: target, name: nil), side)
        XCTAssertEqual(FileManager.default.contents(atPath: side), Data([0xFF, 0xFE, 0x00]))
        XCTAssertTrue(try String(contentsOfFile: folder + "/svc.yaml", encoding: .utf8).contains("sample:"))
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasPrefix(".apicli") }, [])
    }

    /// The target file's rewrite fails (a file size limit: EFBIG) after the 3-byte side file could
    /// be written: nothing is left behind, neither the side file nor a temporary file.
    func testATargetFileThatCannotBeWrittenLeavesNoSideFile() throws {
        try Data(Self.text.utf8).write(to: URL(fileURLWithPath: folder + "/svc.yaml"))
        let (service, target, side) = try load()
        var old = rlimit()
        getrlimit(Int32(RLIMIT_FSIZE.rawValue), &old)
        let oldSignal = signal(SIGXFSZ, SIG_IGN)
        var small = old
        small.rlim_cur = 64
        XCTAssertEqual(setrlimit(Int32(RLIMIT_FSIZE.rawValue), &small), 0)
        var thrown: Error?
        do { try Recorder.write(binary, service: service, target: target, name: nil) } catch { thrown = error }
        setrlimit(Int32(RLIMIT_FSIZE.rawValue), &old)
        signal(SIGXFSZ, oldSignal)
        XCTAssertNotNil(thrown)
        XCTAssertFalse(FileManager.default.fileExists(atPath: side), "the side file was committed before the target file")
        XCTAssertEqual(try String(contentsOfFile: folder + "/svc.yaml", encoding: .utf8), Self.text)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasPrefix(".apicli") }, [])
    }
}

/// Issue 26, item 15: what a server sent is written as literal text: a `{id}` in a response
/// header stays `{id}` when the sample is served (it was read as a placeholder), and `-0` stays `-0`.
final class RecordedLiteralTests: XCTestCase {
    func testHeaderBracesAndNegativeZeroSurviveTheSample() throws {
        let response = Response(status: 200, headers: [HeaderField("Link", "</items/{id}>; rel=\"item\""),
                                                       HeaderField("Content-Type", "application/json")],
                                body: Data(#"{"z": -0}"#.utf8), duration: 0)
        let recorded = RecordedSample(response, options: .init())
        let lines = SampleYAML.lines(recorded, key: "sample", indent: 4, file: nil)
        let service = try decodeService("baseURL: http://127.0.0.1:9\ntargets:\n  t:\n    path: /t/{id}\n    params: { id: \"7\" }\n"
                                        + lines.joined(separator: "\n") + "\n")
        let sample = try XCTUnwrap(service.targets.first?.sample)
        let served = try StubTransport(sample: sample, bindings: Workspace(variables: [:]).bindings(for: service.targets[0], in: service),
                                       file: "t.yaml").response()
        XCTAssertEqual(served.headers.value(of: "Link"), "</items/{id}>; rel=\"item\"")
        XCTAssertEqual(String(decoding: served.body, as: UTF8.self), #"{"z":-0}"#)
    }
}
