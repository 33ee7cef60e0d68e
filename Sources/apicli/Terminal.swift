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
                    if errno == EPIPE { _exit(0) }
                    // stdout is gone or full: say so on stderr (best effort) and leave with exit 5.
                    if fd == STDOUT_FILENO {
                        let message = "apicli: cannot write to standard output: \(String(cString: strerror(errno)))\n"
                        _ = message.withCString { Foundation.write(STDERR_FILENO, $0, strlen($0)) }
                        _exit(5)
                    }
                    return
                }
                p += n
                left -= n
            }
        }
    }

    /// Hides secrets in every line `out` and `err` write; set once the call's endpoint is resolved
    /// (`--show-secrets` turns it off). Bodies written with `write` are the response's own bytes.
    nonisolated(unsafe) static var redactor = Redactor(secrets: [])

    static func out(_ text: String) { write(Data(redactor.text(text).utf8)) }
    static func err(_ text: String) { write(Data(redactor.text(text).utf8), to: STDERR_FILENO) }

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

    static func format(seconds: Double) -> String { LogFormat.seconds(seconds) }

    /// SIGPIPE is ignored (a closed pipe is EPIPE, handled in `write`). SIGINT (Ctrl-C) ends the
    /// program at once with exit 130: in-flight requests die with it, and no file is half written:
    /// downloads still in progress have their temporary files removed first. SIGTERM and SIGHUP
    /// (a CI job's timeout, a closed terminal) do the same with exit 143 and 129.
    static func setUp() {
        signal(SIGPIPE, SIG_IGN)
        interrupts = [(SIGINT, "interrupted"), (SIGTERM, "terminated"), (SIGHUP, "hung up")].map { number, word in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler {
                PartialFile.discardAll()
                let message = "\napicli: \(word)\n"
                _ = message.withCString { Foundation.write(STDERR_FILENO, $0, strlen($0)) }
                _exit(128 + number)
            }
            source.resume()
            return source
        }
    }

    nonisolated(unsafe) private static var interrupts: [DispatchSourceSignal] = []
}
