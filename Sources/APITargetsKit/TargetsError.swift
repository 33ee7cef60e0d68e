import APIDiagnostics
import Foundation

/// One problem in the target files, as `apicli validate` reports it: where (`file:line:column`),
/// what, and how to fix it.
public struct TargetsProblem: Sendable, Equatable, CustomStringConvertible {
    /// The file as it was named when loading (nil: not in a file, such as an unknown target name).
    public var file: String?
    /// 1-based; nil when the problem has no place in the file.
    public var line: Int?
    /// 1-based; nil when the problem has no place in the file.
    public var column: Int?
    /// What is wrong.
    public var message: String
    /// How to fix it (a did-you-mean, the known names), when there is one.
    public var hint: String?
    /// Worth saying, but the file still loads.
    public var isWarning: Bool

    /// `file:line:column: error: message`, and the hint on a line of its own.
    public var description: String {
        let place = file.map { f in line.map { "\(f):\($0):\(column ?? 1): " } ?? "\(f): " } ?? ""
        return place + (isWarning ? "warning: " : "error: ") + message + (hint.map { "\n  hint: \($0)" } ?? "")
    }

    package init(_ d: Diagnostic) {
        file = d.file
        line = d.mark?.line
        column = d.mark?.column
        message = d.message
        hint = d.hint
        isWarning = d.isWarning
    }
}

/// Every failure of the library, typed: what a test or an app can switch over.
public enum TargetsError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The target files (or an unknown target, an unset `${VAR}`, a missing `{param}`): every problem
    /// found, each with its place. `apicli validate` reports the same ones.
    case invalid([TargetsProblem])
    /// What this library does not do for the target (OAuth2, Digest or AWS auth, a WebSocket task):
    /// the `apicli` command line does.
    case unsupported(target: String, reason: String)
    /// No response: refused, DNS, TLS, reset, or a stubbed `error:` (the URLError's words).
    case network(target: String, message: String, code: Int)
    /// No response within the target's timeout, in seconds.
    case timedOut(target: String, seconds: Double)
    /// A response that breaks the target's `expect:` (or `validate:`): the status, and each failed
    /// expectation in the words of `apicli check`.
    case rejected(target: String, status: Int, failures: [String])

    /// The error in `apicli`'s words: the problems one a line, or `target: what failed`.
    public var description: String {
        switch self {
        case .invalid(let problems): return problems.map(\.description).joined(separator: "\n")
        case let .unsupported(target, reason): return "\(target): \(reason)"
        case let .network(target, message, _): return "\(target): network error: \(message)"
        case let .timedOut(target, seconds): return "\(target): timed out after \(seconds) s"
        case let .rejected(target, status, failures):
            return "\(target): status \(status): " + failures.joined(separator: "; ")
        }
    }

    /// The core's error for `target` (nil: not tied to one).
    package init(_ error: APIError, target: String) {
        switch error {
        case .invalidInput(let d): self = .invalid(d.map(TargetsProblem.init))
        case .timedOut(let s), .idleTimeout(let s): self = .timedOut(target: target, seconds: s)
        case .network, .output, .dependency, .stopped: self = .network(target: target, message: error.summary, code: -1)
        }
    }
}

extension TargetsError: LocalizedError {
    /// ``description``.
    public var errorDescription: String? { description }
}
