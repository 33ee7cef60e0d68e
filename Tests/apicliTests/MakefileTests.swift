import Foundation
import XCTest

/// A newcomer's first hour (issue 37): `make run` installs only what building needs (libyaml), test
/// tools go into the project's venv (never `pip install` into a system Python, which stock Debian
/// refuses as "externally-managed-environment"), and `make test` builds the package once (the release
/// packaging check and the URLSession-trait build belong to `make test-all`, which CI runs).
/// Read from `make -n -B` (every recipe printed, none run), so what is checked is what make would do.
final class MakefileTests: XCTestCase {

    /// The recipes `make -n -B TARGET` would run (nothing runs: -n; -B: as on a fresh clone).
    private func dryRun(_ target: String) throws -> String {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = ["make", "-n", "-B", "--no-print-directory", "-C", CLI.root.path, target]
        let out = Pipe()
        p.standardOutput = out
        p.standardError = FileHandle.nullDevice
        try p.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        XCTAssertEqual(p.terminationStatus, 0, "make -n -B \(target)")
        return String(decoding: data, as: UTF8.self)
    }

    func testMakeRunInstallsOnlyWhatBuildingNeeds() throws {
        // GIVEN the offline demo
        // WHEN make shows what `make run` would do on a fresh machine
        let plan = try dryRun("run")
        // THEN it installs libyaml and PCRE2 and builds, and nothing the tests alone need
        XCTAssertTrue(plan.contains("libyaml-dev") && plan.contains("libpcre2-dev"), plan)
        XCTAssertTrue(plan.contains("apicli call github.zen --stub"), plan)
        for word in ["chromium", "nginx", "pip install", "venv", "xmllint"] {
            XCTAssertFalse(plan.contains(word), "`make run` would touch \(word):\n\(plan)")
        }
    }

    func testPythonPackagesGoIntoTheVenvOnly() throws {
        // GIVEN what `make test-all` (CI) would do on a fresh machine
        let plan = try dryRun("test-all")
        // WHEN every pip install line is read
        let installs = plan.split(separator: "\n").filter { $0.contains("pip install") }
        // THEN there are some, and each runs a venv's python, never the system's
        XCTAssertFalse(installs.isEmpty, plan)
        for line in installs {
            XCTAssertTrue(line.contains(".venv/"), "a pip install outside the project's venv: \(line)")
        }
    }

    func testMakeTestBuildsThePackageOnceAndTestAllRunsTheRest() throws {
        // GIVEN `make test` and `make test-all`
        let test = try dryRun("test")
        let all = try dryRun("test-all")
        // WHEN their builds are read
        // THEN `make test` builds debug only (no release build, no URLSession-trait build folder) …
        XCTAssertFalse(test.contains("-c release"), test)
        XCTAssertFalse(test.contains("URLSessionTransport"), test)
        XCTAssertTrue(test.contains("swift test"), test)
        // … and CI's `make test-all` still packages the release binary and runs the trait's contract tests
        XCTAssertTrue(all.contains("-c release"), all)
        XCTAssertTrue(all.contains("--traits URLSessionTransport"), all)
        XCTAssertTrue(all.contains("dist-test.sh"), all)
    }
}
