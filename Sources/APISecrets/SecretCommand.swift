import APISupport
import APIYAML
import APIDiagnostics
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

/// `secrets: { NAME: { command: [argv…] } }` in `apicli.yaml`: a `${NAME}` whose value is what a
/// command prints (1Password's `op read`, `pass show`, `vault kv get -field=…`, `aws
/// secretsmanager get-secret-value …`). The argv runs as it is (found on `PATH`, never through a
/// shell), stdin from /dev/null, for at most `timeout` seconds and `maxOutput` bytes; its stderr is
/// kept for the error message, never passed through. The value is stdout without its trailing newline.
package struct SecretCommand: Sendable, Equatable {
    package var argv: [String]
    package var timeout: Double
    /// Where it is declared, for messages.
    package var file: String?
    package var mark: Mark

    package static let defaultTimeout = 30.0
    /// A secret is short: more output than this is a mistake (a whole document printed).
    package static let maxOutput = 64 * 1024

    package init(argv: [String], timeout: Double = SecretCommand.defaultTimeout, file: String?, mark: Mark) {
        self.argv = argv
        self.timeout = timeout
        self.file = file
        self.mark = mark
    }

    /// Runs the command; a failure (cannot start, exit status, timeout, too much or no output)
    /// names the variable and the command, with the last line of its stderr.
    package func run(for name: String) throws(APIError) -> String {
        let shown = argv.joined(separator: " ")
        func failure(_ why: String) -> APIError {
            .invalid(Diagnostic(file: file, mark: mark, message: "the secret command of \(name) (\(shown)) \(why)",
                                hint: "run the command yourself to see what it needs (a login, a vault address), or export \(name)"))
        }
        let result = ChildProcess.run(argv, timeout: timeout, maxOutput: Self.maxOutput)
        switch result.outcome {
        case .cannotStart(let reason): throw failure("could not start: \(reason)")
        case .timedOut: throw failure("did not finish within \(Text.number(timeout)) s; it was stopped")
        case .tooMuchOutput: throw failure("printed more than \(Self.maxOutput / 1024) KiB; a secret is one value")
        case .exited(let status), .signaled(let status):
            let stderr = String(decoding: result.stderr, as: UTF8.self)
            let last = stderr.split(whereSeparator: \.isNewline).last.map { String($0.prefix(300)) }
            guard case .exited(0) = result.outcome else {
                let how = { if case .signaled = result.outcome { return "was killed by signal \(status)" }; return "failed (exit \(status))" }()
                throw failure(how + (last.map { ": \($0)" } ?? ""))
            }
            var value = String(decoding: result.stdout, as: UTF8.self)
            while value.hasSuffix("\n") || value.hasSuffix("\r") || value.hasSuffix("\r\n") { value.removeLast() }
            guard !value.isEmpty else { throw failure("printed nothing" + (last.map { ": \($0)" } ?? "")) }
            return value
        }
    }
}

/// The secret commands of a project, each run at most once per process (when a `${NAME}` that
/// needs it is first expanded), the value kept in memory only.
package final class SecretProviders: Sendable {
    package let commands: [String: SecretCommand]
    /// false for a request that is only shown (`show`, `call --dry-run`): no command runs and a
    /// variable that has one stands as `Redactor.mask` (`••••`, what `Bindings.placeholder` is).
    package let runs: Bool
    /// By argv, for the whole process (every resolver and workspace shares it).
    private static let values = Locked([[String]: String]())
    private static let running = Mutex()

    package init(_ commands: [String: SecretCommand] = [:], runs: Bool = true) {
        self.commands = commands
        self.runs = runs
    }

    /// nil when `name` has no command.
    package func value(of name: String) throws(APIError) -> String? {
        guard let command = commands[name] else { return nil }
        guard runs else { return Redactor.mask }  // Bindings.placeholder
        if let known = Self.values.withLock({ $0[command.argv] }) { return known }
        // One command at a time, looked up again inside: requests built at once on several threads
        // (`check`'s workers) still run each command once.
        Self.running.lock()
        defer { Self.running.unlock() }
        if let known = Self.values.withLock({ $0[command.argv] }) { return known }
        let value = try command.run(for: name)
        Self.values.withLock { $0[command.argv] = value }
        return value
    }
}
