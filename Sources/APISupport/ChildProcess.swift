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

/// One command run to its end with bounds: argv as given (`posix_spawnp`, found on `PATH`, no
/// shell), stdin /dev/null, stdout and stderr captured (never passed through), stopped with
/// SIGKILL after `timeout` seconds or once stdout passes `maxOutput` bytes.
package enum ChildProcess {
    package enum Outcome: Equatable {
        case exited(Int32)
        case signaled(Int32)
        case timedOut
        case tooMuchOutput
        case cannotStart(String)
    }

    package struct Result {
        package var outcome: Outcome
        package var stdout: [UInt8] = []
        /// The last 4 KiB.
        package var stderr: [UInt8] = []
    }

    package static func run(_ argv: [String], timeout: Double, maxOutput: Int) -> Result {
        guard let program = argv.first, !program.isEmpty else { return Result(outcome: .cannotStart("no command")) }
        var out: [Int32] = [-1, -1], err: [Int32] = [-1, -1]
        guard pipe(&out) == 0 else { return Result(outcome: .cannotStart(String(cString: strerror(errno)))) }
        guard pipe(&err) == 0 else {
            close(out[0]); close(out[1])
            return Result(outcome: .cannotStart(String(cString: strerror(errno))))
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, out[1], 1)
        posix_spawn_file_actions_adddup2(&actions, err[1], 2)
        for fd in [out[0], out[1], err[0], err[1]] { posix_spawn_file_actions_addclose(&actions, fd) }
        let cArgs: [UnsafeMutablePointer<CChar>?] = argv.map { strdup($0) } + [nil]
        defer { for p in cArgs { free(p) } }
        var pid = pid_t()
        let spawned = posix_spawnp(&pid, program, &actions, nil, cArgs, environ)
        close(out[1]); close(err[1])
        guard spawned == 0 else {
            close(out[0]); close(err[0])
            return Result(outcome: .cannotStart("\(program): \(String(cString: strerror(spawned)))"))
        }
        var result = Result(outcome: .exited(0))
        var stop: Outcome? = nil
        var open = [out[0], err[0]]
        let deadline = monotonicSeconds() + timeout
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        while !open.isEmpty && stop == nil {
            let left = deadline - monotonicSeconds()
            if left <= 0 { stop = .timedOut; break }
            var fds = open.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            let ready = poll(&fds, nfds_t(fds.count), Int32(min(left * 1000, 1000)) + 1)
            if ready < 0 && errno != EINTR { break }
            for p in fds where p.revents != 0 {
                let n = read(p.fd, &buffer, buffer.count)
                if n <= 0 {
                    close(p.fd)
                    open.removeAll { $0 == p.fd }
                } else if p.fd == out[0] {
                    result.stdout += buffer[0..<n]
                    if result.stdout.count > maxOutput { stop = .tooMuchOutput }
                } else {
                    result.stderr = Array((result.stderr + buffer[0..<n]).suffix(4096))
                }
            }
        }
        for fd in open { close(fd) }
        var status: Int32 = 0
        var reaped = false
        // Its output closed: it must still end within the deadline.
        while stop == nil {
            let r = waitpid(pid, &status, WNOHANG)
            if r == pid { reaped = true; break }
            if r < 0 && errno != EINTR { break }
            if monotonicSeconds() >= deadline { stop = .timedOut; break }
            usleep(5_000)
        }
        if !reaped {
            kill(pid, SIGKILL)
            while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        }
        if let stop {
            result.outcome = stop
        } else if status & 0x7f == 0 {
            result.outcome = .exited((status >> 8) & 0xff)
        } else {
            result.outcome = .signaled(status & 0x7f)
        }
        return result
    }
}
