import Dispatch
import APICore
import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The bytes the executable writes, and the signals it handles. Text goes through a `Console`.
enum Terminal {
    static var stdoutIsTTY: Bool { isatty(STDOUT_FILENO) == 1 }

    /// Writes all of `data` to `fd`. A closed pipe (`apicli … | head`) ends the program quietly.
    static func write(_ data: Data, to fd: Int32 = STDOUT_FILENO) {
        data.withUnsafeBytes { raw in
            guard var p = raw.baseAddress else { return }
            var left = raw.count
            while left > 0 {
                let n = POSIX.write(fd, p, left)
                if n < 0 {
                    if errno == EINTR { continue }
                    if errno == EPIPE { _exit(0) }
                    // stdout is gone or full: say so on stderr (best effort) and leave with exit 5.
                    if fd == STDOUT_FILENO {
                        let message = "apicli: cannot write to standard output: \(String(cString: strerror(errno)))\n"
                        _ = message.withCString { POSIX.write(STDERR_FILENO, $0, strlen($0)) }
                        _exit(5)
                    }
                    return
                }
                p += n
                left -= n
            }
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
                _ = message.withCString { POSIX.write(STDERR_FILENO, $0, strlen($0)) }
                _exit(128 + number)
            }
            source.resume()
            return source
        }
    }

    nonisolated(unsafe) private static var interrupts: [DispatchSourceSignal] = []
}

/// Text for stdout and stderr, with the secrets of the command's workspace hidden by its
/// redactor (passed in: `--show-secrets` gives `.off`), and the failure lines that pick the exit code.
/// The redactor is asked for at each write: secrets met later (a captured token) are hidden too.
struct Console: Sendable {
    private let source: @Sendable () -> Redactor

    init(_ workspace: Workspace) {
        source = { workspace.redactor }
    }

    private init(fixed: Redactor) {
        source = { fixed }
    }

    var redactor: Redactor { source() }

    /// Before a workspace exists (bad arguments, an unreadable project file): nothing to hide yet.
    static let plain = Console(fixed: Redactor(secrets: []))

    func out(_ text: String) { Terminal.write(Data(redactor.text(text).utf8)) }
    func err(_ text: String) { Terminal.write(Data(redactor.text(text).utf8), to: STDERR_FILENO) }

    /// Prints the failure and returns the documented exit code to throw.
    func fail(_ error: APIError, target: String?) -> ExitCode {
        let who = target.map { "\($0): " } ?? ""
        switch error {
        case .invalidInput(let diagnostics):
            var renderer = DiagnosticRenderer()
            for d in diagnostics { err(renderer.render(d)) }
            if diagnostics.count > 1 { err("\(diagnostics.count) errors\n") }
            return ExitCode(2)
        case .network(let failure):
            err("apicli: \(who)network error: \(failure)\n")
            return ExitCode(3)
        case .timedOut(let seconds):
            err("apicli: \(who)timed out after \(Terminal.format(seconds: seconds))\n")
            return ExitCode(4)
        case .output(let message):
            err("apicli: \(who)\(message)\n")
            return ExitCode(5)
        case .dependency(let message):
            err("apicli: \(who)\(message)\n")
            return ExitCode(1)
        case .stopped(let message):
            err("apicli: \(message)\n")
            return ExitCode(1)
        }
    }
}

/// Standard output as a body sink: `call` streams a response body here (a closed pipe ends the
/// program quietly, a full disk with exit 5, as `Terminal.write` does).
final class StandardOutput: BodySink {
    func write(_ bytes: UnsafeRawBufferPointer) throws(APIError) {
        Terminal.write(Data(bytes))
    }
}
