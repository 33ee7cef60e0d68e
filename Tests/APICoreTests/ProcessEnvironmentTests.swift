import Foundation
import XCTest
import APISupport
#if canImport(Glibc)
import Glibc
#endif

/// `ProcessEnvironment.all()` is `ProcessInfo.processInfo.environment`, read faster: the same
/// dictionary, whatever the variables hold.
final class ProcessEnvironmentTests: XCTestCase {
    func testTheSameVariablesAsProcessInfo() {
        let names = ["APICLI_TEST_ENV_PLAIN", "APICLI_TEST_ENV_EQUALS", "APICLI_TEST_ENV_EMPTY", "APICLI_TEST_ENV_UTF8"]
        defer { for name in names { unsetenv(name) } }
        setenv(names[0], "value", 1)
        setenv(names[1], "a=b==c", 1)  // split at the first `=` only
        setenv(names[2], "", 1)
        setenv(names[3], "héllo wörld ☃", 1)
        let all = ProcessEnvironment.all()
        XCTAssertEqual(all, ProcessInfo.processInfo.environment)
        XCTAssertEqual(all[names[0]], "value")
        XCTAssertEqual(all[names[1]], "a=b==c")
        XCTAssertEqual(all[names[2]], "")
        XCTAssertEqual(all[names[3]], "héllo wörld ☃")
        unsetenv(names[0])
        XCTAssertNil(ProcessEnvironment.all()[names[0]], "read again at each call")
    }
}
