import APICore
import ArgumentParser
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

@main
struct APICLI: AsyncParsableCommand {
    // Every command names itself (commandName:): argument-parser otherwise derives each name with
    // String(describing:) of the type — a scan of the binary's conformance records per command at
    // every start, a third of `call --stub`'s instructions (callgrind).
    static let configuration = CommandConfiguration(
        commandName: "apicli",
        abstract: "Call HTTP APIs described in YAML target files, live or from their sample responses.",
        discussion: """
            Target files live in ./targets (or --targets DIR, or APICLI_TARGETS): one YAML file per \
            service. Name a target as service.target, e.g. github.zen. targets/apicli.yaml, when \
            present, holds defaults, rules and environments for every service (--env, APICLI_ENV).

            EXIT CODES (call, show, list)
              0   success
              1   rejected by validate:; a needed target failed or captured nothing;
                  until:'s failIf: held; an oauth2 token was refused
              2   bad target file, unknown target, unresolved {param} or ${VAR}
              3   network failure (refused, DNS, TLS, reset) or a stubbed error:
              4   timeout (also until:'s within: running out)
              5   a local file could not be written (-o, a download)
              64  bad command-line usage
              130 interrupted (Ctrl-C)

            EXIT CODES (check; validate exits 0 or 2)
              0   every check passed (skipped ones do not count)
              1   a check failed
              2   bad target file or pattern, or a target that cannot be built
              3   every failure was a network failure
              4   every failure was a timeout
              5   a report file could not be written (--junit, --json, --report-html, $GITHUB_STEP_SUMMARY)
              --fail-on-flaky makes a check that passed only on a retry exit 1; --shard auto without a
              shard in the environment, or an unreadable --rerun-failed/--shard-timings report, is 2.
              `report merge` exits as check would over the merged results, 2 when it refuses the reports.

            EXIT CODES (mock): 0 stopped by SIGINT or SIGTERM, 2 bad target file, pattern or route
            conflict, 3 the address cannot be listened on. (record): as call, and 2 when the edit would
            break the target file; nothing is written for a rejected response (1) unless --accept-any.
            (import): 0 written, 2 bad input, 5 the file exists (use --force) or cannot be written.
            (auth clear): 0.
            """,
        version: "0.1.0",
        subcommands: [Call.self, List.self, Show.self, Check.self, Validate.self, Report.self, Import.self, Auth.self, Mock.self, Record.self]
    )

    /// The command line, with `--drift=MODE` (an option whose value may be left out, which the
    /// argument parser has no form for) spelled `--drift --drift-mode MODE`.
    static var arguments: [String] {
        Array(CommandLine.arguments.dropFirst()).flatMap { word -> [String] in
            word.hasPrefix("--drift=") ? ["--drift", "--drift-mode", String(word.dropFirst("--drift=".count))] : [word]
        }
    }

    /// Parses, runs, and leaves with `_exit`: once the output is flushed there is nothing left to
    /// tear down, and a live libcurl transfer (a timed-out request) can hang `exit()`'s handlers.
    static func main() async {
        var code: Int32 = 0
        do {
            var command = try parseAsRoot(arguments)
            if var asyncCommand = command as? AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            code = exitCode(for: error).rawValue
            let message = fullMessage(for: error)
            if !message.isEmpty {
                if code == 0 { Console.plain.out(message + "\n") } else { Console.plain.err(message + "\n") }
            }
        }
        fflush(nil)
        _exit(code)
    }
}
