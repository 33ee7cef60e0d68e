import NIOCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Why a server of apicli's (`mock`, `load --metrics`) cannot listen on its address, in plain words
/// (NIO's text names its syscall and errno). `port`: how to pick another port with the command's
/// flags; `host`: which addresses the command's flag takes.
package enum ListenProblem {
    package static func describe(_ error: any Error, port: String, host: String) -> String {
        guard let e = error as? IOError else { return "\(error)" }
        switch e.errnoCode {
        case EADDRINUSE: return "the port is in use (another server listens there); \(port)"
        case EACCES: return "permission denied (ports below 1024 need privileges); \(port)"
        case EADDRNOTAVAIL: return "this machine has no such address; \(host)"
        default: return String(cString: strerror(e.errnoCode)).lowercased()
        }
    }
}
