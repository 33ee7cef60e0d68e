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
                    if errno == EPIPE { _exit(ExitStatus.ok.rawValue) }
                    // stdout is gone or full: say so on stderr (best effort) and leave with exit 5.
                    if fd == STDOUT_FILENO {
                        let message = "apicli: cannot write to standard output: \(String(cString: strerror(errno)))\n"
                        _ = message.withCString { POSIX.write(STDERR_FILENO, $0, strlen($0)) }
                        _exit(ExitStatus.output.rawValue)
                    }
                    return
                }
                p += n
                left -= n
            }
        }
    }


    /// SIGPIPE is ignored (a closed pipe is EPIPE, handled in `write`). SIGINT (Ctrl-C) ends the
    /// program at once with exit 130: in-flight requests die with it, and no file is half written:
    /// downloads still in progress have their temporary files removed first. SIGTERM and SIGHUP
    /// (a CI job's timeout, a closed terminal) do the same with exit 143 and 129.
    static func setUp() {
        signal(SIGPIPE, SIG_IGN)
        let signals: [(Int32, String, ExitStatus)] = [(SIGINT, "interrupted", .interrupted), (SIGTERM, "terminated", .terminated),
                                                      (SIGHUP, "hung up", .hungUp)]
        interrupts = signals.map { number, word, status in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler {
                PartialFile.discardAll()
                let message = "\napicli: \(word)\n"
                _ = message.withCString { POSIX.write(STDERR_FILENO, $0, strlen($0)) }
                _exit(status.rawValue)
            }
            source.resume()
            return source
        }
    }

    /// Ctrl-C runs `action` instead of ending the program (`load`: stop, print the report so far,
    /// exit 130); a second Ctrl-C ends it at once.
    static func onInterrupt(_ action: @escaping @Sendable () -> Void) {
        interrupts.first?.cancel()
        let source = DispatchSource.makeSignalSource(signal: SIGINT, queue: .global())
        let first = Locked(false)
        source.setEventHandler {
            if first.claim() { action(); return }
            _exit(ExitStatus.interrupted.rawValue)
        }
        source.resume()
        if interrupts.isEmpty { interrupts = [source] } else { interrupts[0] = source }
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

    /// Prints the failure and returns its exit code (`ExitStatus`) to throw: a target-file
    /// problem with every diagnostic and its source line, anything else as its one-line summary.
    func fail(_ error: APIError, target: String?) -> ExitCode {
        switch error {
        case .invalidInput(let diagnostics):
            var renderer = DiagnosticRenderer()
            for d in diagnostics { err(renderer.render(d)) }
            if diagnostics.count > 1 { err("\(diagnostics.count) errors\n") }
        case .stopped:
            err("apicli: \(error.summary)\n")  // it names the target itself
        default:
            err("apicli: \(target.map { "\($0): " } ?? "")\(error.summary)\n")
        }
        return ExitStatus(error.kind).code
    }
}

/// Standard output as a body sink: `call` streams a response body here (a closed pipe ends the
/// program quietly, a full disk with exit 5, as `Terminal.write` does).
final class StandardOutput: BodySink {
    func write(_ bytes: UnsafeRawBufferPointer) throws(APIError) {
        Terminal.write(Data(bytes))
    }
}
