import APICore
import ArgumentParser
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Everything the executable writes goes through here: stdout, stderr, and the failure lines that
/// pick the exit code.
enum Terminal {
    static var stdoutIsTTY: Bool { isatty(STDOUT_FILENO) == 1 }

    /// Writes all of `data` to `fd`. A closed pipe (`apicli … | head`) ends the program quietly.
    static func write(_ data: Data, to fd: Int32 = STDOUT_FILENO) {
        data.withUnsafeBytes { raw in
            guard var p = raw.baseAddress else { return }
            var left = raw.count
            while left > 0 {
                let n = Foundation.write(fd, p, left)
                if n < 0 {
                    if errno == EINTR { continue }
                    if errno == EPIPE { exit(0) }
                    return
                }
                p += n
                left -= n
            }
        }
    }

    static func out(_ text: String) { write(Data(text.utf8)) }
    static func err(_ text: String) { write(Data(text.utf8), to: STDERR_FILENO) }

    /// Prints the failure and returns the documented exit code to throw.
    static func fail(_ error: APIError, target: String?) -> ExitCode {
        let who = target.map { "\($0): " } ?? ""
        switch error {
        case .invalidInput(let diagnostics):
            var renderer = DiagnosticRenderer()
            for d in diagnostics { err(renderer.render(d)) }
            if diagnostics.count > 1 { err("\(diagnostics.count) errors\n") }
            return ExitCode(2)
        case .network(let message):
            err("apicli: \(who)network error: \(message)\n")
            return ExitCode(3)
        case .timedOut(let seconds):
            err("apicli: \(who)timed out after \(format(seconds: seconds))\n")
            return ExitCode(4)
        case .output(let message):
            err("apicli: \(who)\(message)\n")
            return ExitCode(5)
        }
    }

    static func format(seconds: Double) -> String {
        if seconds < 1 { return "\(Int((seconds * 1000).rounded())) ms" }
        return seconds == seconds.rounded() ? "\(Int(seconds)) s" : String(format: "%.2f s", seconds)
    }

    static func setUp() {
        signal(SIGPIPE, SIG_IGN)
    }
}
