import Foundation
import XCTest
@testable import APITargets
@testable import APIEndpoint
@testable import APITransport
@testable import APISend

/// The progress bar: when it draws, what it says, and that it cleans up after itself.
final class ProgressPluginTests: XCTestCase {
    /// A clock the test moves by hand, and everything the plugin wrote.
    private final class Rig: @unchecked Sendable {
        var now = 100.0
        var written: [String] = []
    }

    private let request = PreparedRequest(url: URL(string: "http://127.0.0.1/x")!, method: "GET", headers: [], body: nil, timeout: 5)

    private func plugin(_ rig: Rig) -> ProgressPlugin {
        ProgressPlugin(clock: { rig.now }, sink: { rig.written.append($0) })
    }

    func testQuickTransfersDrawNothing() {
        // GIVEN a transfer that ends within the first second
        let rig = Rig()
        let p = plugin(rig)
        p.willSend(request)
        rig.now += 0.5
        p.progress(TransferProgress(.download, bytes: 1000, total: 1000), for: request)
        p.didReceive(.success(Response(status: 200, headers: [], body: Data(), duration: 0.5)), for: request)
        // THEN nothing was written, not even the erase sequence
        XCTAssertEqual(rig.written, [])
    }

    func testSlowTransfersRedrawInPlaceAtMostTenTimesASecondThenErase() {
        let rig = Rig()
        let p = plugin(rig)
        p.willSend(request)
        p.progress(TransferProgress(.download, bytes: 0, total: 4 << 20), for: request)  // first byte at t=0
        rig.now += 1.0
        p.progress(TransferProgress(.download, bytes: 1 << 20, total: 4 << 20), for: request)
        rig.now += 0.05
        p.progress(TransferProgress(.download, bytes: (1 << 20) + 10, total: 4 << 20), for: request)  // too soon: skipped
        rig.now += 0.95
        p.progress(TransferProgress(.download, bytes: 2 << 20, total: 4 << 20), for: request)
        p.didReceive(.failure(.timedOut(5)), for: request)
        XCTAssertEqual(rig.written, [
            "\r↓ 1.0 MiB / 4.0 MiB  25% [=====>              ]  1.0 MiB/s  ETA 0:03\u{1B}[K",
            "\r↓ 2.0 MiB / 4.0 MiB  50% [==========>         ]  1.0 MiB/s  ETA 0:02\u{1B}[K",
            "\r\u{1B}[K",
        ])
    }

    func testLineWithoutATotalAndForUploads() {
        XCTAssertEqual(ProgressPlugin.line(TransferProgress(.download, bytes: 1536, total: nil), seconds: 2), "↓ 1.5 KiB  768 B/s")
        XCTAssertEqual(ProgressPlugin.line(TransferProgress(.upload, bytes: 3 << 30, total: 3 << 30), seconds: 1),
                       "↑ 3.0 GiB / 3.0 GiB 100% [====================]  3.0 GiB/s")
        XCTAssertEqual(ProgressPlugin.line(TransferProgress(.upload, bytes: 0, total: 10), seconds: 0),
                       "↑ 0 B / 10 B   0% [>                   ]")
    }

    func testSizesAndTimes() {
        XCTAssertEqual(ProgressPlugin.size(1023), "1023 B")
        XCTAssertEqual(ProgressPlugin.size(1024), "1.0 KiB")
        XCTAssertEqual(ProgressPlugin.size(200 << 20), "200.0 MiB")
        XCTAssertEqual(ProgressPlugin.clockTime(4.2), "0:05")
        XCTAssertEqual(ProgressPlugin.clockTime(750), "12:30")
        XCTAssertEqual(ProgressPlugin.clockTime(3723), "1:02:03")
    }

    func testAStubbedDownloadWritesTheSampleIntoTheDestination() async throws {
        // GIVEN a stubbed exchange with a destination
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("apicli-pp-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let destination = try PartialFile.create(for: dir.appendingPathComponent("out").path)
        let stub = StubTransport(sample: Sample(body: .text(Template("hello", mark: at(1, 1))), mark: at(1, 1)),
                                 bindings: Bindings(params: [:], environment: [:]), file: "t.yaml")
        let exchange = try await Exchange.perform(request, transport: stub, transfer: Transfer(destination: destination))
        // THEN the body went to the file, not to memory
        XCTAssertEqual(exchange.response.body, Data())
        XCTAssertTrue(exchange.response.saved === destination)
        XCTAssertEqual(destination.prefix(100).utf8Text, "hello")
        destination.discard()
    }
}
