import APIDiagnostics
import APITransport
import ArgumentParser

/// The one table of exit codes: the only place a number appears. Errors reach it by their kind
/// (`APIError.kind`), runs of many targets by the kinds of their failures; `apicli help
/// exit-codes` and docs/exit-codes.md's table are rendered from `ExitStatus.table` (a test compares them).
enum ExitStatus: Int32, CaseIterable {
    case ok = 0
    case failed = 1
    case invalid = 2
    case network = 3
    case timeout = 4
    case output = 5
    case usage = 64
    case hungUp = 129
    case interrupted = 130
    case terminated = 143

    var code: ExitCode { ExitCode(rawValue) }

    /// The status of one failure of this kind.
    init(_ kind: FailureKind) {
        switch kind {
        case .expectation, .dependency: self = .failed
        case .invalid: self = .invalid
        case .network: self = .network
        case .timeout: self = .timeout
        case .output: self = .output
        }
    }

    /// The status of a run whose failures had these kinds (`check`, `record` of many): a target
    /// that could not be built wins, then an unwritable file; network or timeout only when every
    /// failure was one; else 1.
    static func of(_ kinds: Set<FailureKind>) -> ExitStatus {
        if kinds.contains(.invalid) { return .invalid }
        if kinds.contains(.output) { return .output }
        if kinds == [.network] { return .network }
        if kinds == [.timeout] { return .timeout }
        return kinds.isEmpty ? .ok : .failed
    }

    /// What each status means, in every command (docs/exit-codes.md's table, `apicli help exit-codes`).
    static let table: [(ExitStatus, String)] = [
        (.ok, "success; check: every check passed (skipped ones do not count); mock: stopped by SIGINT or SIGTERM"),
        (.failed, "rejected by validate: or expect:; a check failed; a needed target failed or captured nothing; "
            + "until:'s failIf: held; an oauth2 token was refused; check --fail-on-flaky and a flaky check; check and report merge --coverage-min: "
            + "coverage below it; load (and report merge "
            + "of load reports): a threshold failed"),
        (.invalid, "bad target file, unknown target or pattern, unresolved {param} or ${VAR}, a target that cannot "
            + "be built; record: the edit would break the file; import: bad input; report merge: reports refused; "
            + "check: a live run checked nothing (without --allow-empty), a --coverage description that cannot be read"),
        (.network, "network failure (refused, DNS, TLS, reset) or a stubbed error:; check: every failure was one; "
            + "mock, load --metrics: the address cannot be listened on"),
        (.timeout, "timeout (also until:'s within: running out, and a stream's idle timeout); check: every failure was one"),
        (.output, "a local file could not be written (-o, a download, a report, a recorded sample); import: the "
            + "file exists (use --force), or `--update` has no file to update; init: a file it would write exists"),
        (.usage, "bad command-line usage; load: a host that is neither loopback nor a baseURL of the target files, without --yes"),
        (.hungUp, "hung up (SIGHUP)"),
        (.interrupted, "interrupted (Ctrl-C); load: after printing and writing the report so far"),
        (.terminated, "terminated (SIGTERM)"),
    ]

    /// `apicli exit-codes [--markdown]` and `apicli help exit-codes`: the table to print, or nil
    /// for any other command line. (Not a subcommand: every subcommand argument-parser knows
    /// costs every run of apicli its reflection at start-up.)
    static func request(_ words: [String]) -> String? {
        switch words {
        case ["exit-codes"], ["help", "exit-codes"], ["exit-codes", "--help"]: return text()
        case ["exit-codes", "--markdown"]: return markdown
        default: return nil
        }
    }

    /// The table as docs/exit-codes.md has it.
    static var markdown: String {
        "| code | meaning |\n| --- | --- |\n" + table.map { "| \($0.rawValue) | \($1) |\n" }.joined()
    }

    /// The table as text, one status a line, wrapped under its meaning at `width` columns.
    static func text(width: Int = 80) -> String {
        table.map { status, meaning in
            let code = String(status.rawValue)
            return code + String(repeating: " ", count: max(1, 5 - code.count)) + wrap(meaning, width: width - 5, indent: 5)
        }.joined(separator: "\n") + "\n"
    }

    private static func wrap(_ text: String, width: Int, indent: Int) -> String {
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ") {
            if !line.isEmpty, line.count + 1 + word.count > width {
                lines.append(line)
                line = ""
            }
            line += (line.isEmpty ? "" : " ") + word
        }
        if !line.isEmpty { lines.append(line) }
        return lines.joined(separator: "\n" + String(repeating: " ", count: indent))
    }
}
