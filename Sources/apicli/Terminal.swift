import Dispatch
import APISupport
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
        data.withUnsafeBytes { raw in write(raw, to: fd) }
    }

    /// Writes `text`'s UTF-8 bytes to `fd`, as they are (no `Data` made of them: `Data`'s init from a
    /// sequence asks the Swift runtime whether the view is `ContiguousBytes`: the first time, a scan
    /// of every protocol conformance in the binary).
    static func write(_ text: String, to fd: Int32 = STDOUT_FILENO) {
        var text = text
        text.withUTF8 { bytes in write(UnsafeRawBufferPointer(bytes), to: fd) }
    }

    private static func write(_ raw: UnsafeRawBufferPointer, to fd: Int32) {
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

    /// SIGPIPE is ignored (a closed pipe is EPIPE, handled in `write`). SIGINT (Ctrl-C) ends the
    /// program at once with exit 130: in-flight requests die with it, and no file is half written:
    /// downloads still in progress have their temporary files removed first. SIGTERM and SIGHUP
    /// (a CI job's timeout, a closed terminal) do the same with exit 143 and 129 (`SignalExit`).
    /// Where the thread setting up receives these signals (the main thread of a stub call, `list`,
    /// `validate`; a live call's loop) a plain handler does it, with no thread started; on Swift's
    /// pool, whose threads block every signal, Dispatch's signal sources (a thread of their own).
    static func setUp() {
        signal(SIGPIPE, SIG_IGN)
        if SignalExit.callingThreadReceives() {
            SignalExit.handleDirectly()
        } else {
            interrupts = SignalExit.signals.map(leaveOnSignal)
        }
    }

    private static func leaveOnSignal(_ number: Int32) -> DispatchSourceSignal {
        signal(number, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
        source.setEventHandler { SignalExit.leave(number) }
        source.resume()
        return source
    }

    /// Ctrl-C runs `action` instead of ending the program (`load`: stop, print the report so far,
    /// exit 130); a second Ctrl-C ends it at once.
    static func onInterrupt(_ action: @escaping @Sendable () -> Void) {
        interrupts.first?.cancel()
        // (No SIG_IGN here: it would replace the handler libdispatch installed for the first source.)
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
