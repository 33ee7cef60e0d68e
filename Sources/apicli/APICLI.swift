import APISupport
import APIDiagnostics
import APITargets
import APIImport
import APISend
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
    // every start.
    static let configuration = CommandConfiguration(
        commandName: "apicli",
        abstract: "Call HTTP APIs described in YAML target files, live or from their sample responses.",
        discussion: """
            Target files live in ./targets (or --targets DIR, or APICLI_TARGETS): one YAML file per \
            service. Name a target as service.target, e.g. github.zen. targets/apicli.yaml, when \
            present, holds defaults, rules and environments for every service (--env, APICLI_ENV).

            Exit codes: `apicli help exit-codes` (or `apicli exit-codes`; `--markdown` for the manual's table).
            """,
        version: apicliVersion,
        subcommands: [Call.self, List.self, Show.self, Check.self, Load.self, Validate.self, Report.self, Import.self, Export.self, Auth.self, Mock.self, Record.self,
                      Init.self, Schema.self]
    )

    /// The command line, with `--drift=MODE` (an option whose value may be left out, which the
    /// argument parser has no form for) spelled `--drift --drift-mode MODE`.
    static var arguments: [String] {
        Array(CommandLine.arguments.dropFirst()).flatMap { word -> [String] in
            word.hasPrefix("--drift=") ? ["--drift", "--drift-mode", String(word.dropFirst("--drift=".count))] : [word]
        }
    }

    /// Parses, runs, and leaves with `_exit`: once the output is flushed there is nothing left to
    /// tear down, and `exit()`'s handlers would run while NIO's event-loop threads still hold live
    /// connections (a timed-out request's among them).
    ///
    /// Synchronous: the command runs as the process's one task, started where it belongs
    /// (`OneCall.start`): `--version`, `list` and `validate` need none; a stub or dry-run `call` runs
    /// on this thread, a live one on its NIO loop, everything else on Swift's pool. An `async`
    /// main would start on the pool's threads (three of them) before any of that.
    static func main() {
        var words = arguments
        // Answered before argument-parser: each subcommand it knows costs every run its start-up.
        if let table = ExitStatus.request(words) {
            Console.plain.out(table)
            fflush(nil)
            _exit(0)
        }
        let adHoc: AdHocOptions
        do { adHoc = try AdHocOptions.extract(from: &words) } catch { finish(error) }
        // The common lines are read by hand (no argument-parser at all); the rest by argument-parser.
        if let quick = HandParser.parse(words, adHoc: adHoc) { quick.runAndLeave() }
        if let mistyped = unknownCommand(words) {
            Console.plain.err(mistyped)
            leave(ExitStatus.usage.rawValue)
        }
        let line = words
        OneCall.start(.pool) {
            do {
                var command = try parseAsRoot(line)
                if let call = command as? Call {
                    // `call URL`: with the curl flags taken out before parsing.
                    var values = call.values
                    values.adHoc = adHoc
                    try await values.run()
                } else if var asyncCommand = command as? AsyncParsableCommand {
                    try await asyncCommand.run()
                } else {
                    try command.run()
                }
            } catch {
                finish(error)
            }
            leave(0)
        }
    }

    /// The message and exit code of what ended the command, then `leave`.
    static func finish(_ error: any Error) -> Never {
        // What argument-parser's message for an ExitCode is (none, that code), without its usage
        // text, which it renders for every error.
        if let status = error as? ExitCode { leave(status.rawValue) }
        let code = exitCode(for: error).rawValue
        let message = fullMessage(for: error)
        if !message.isEmpty {
            if code == 0 { Console.plain.out(message + "\n") } else { Console.plain.err(message + "\n") }
        }
        leave(code)
    }

    /// `apicli cal x`: the message for a first word that is no command but a typo away from one
    /// (argument-parser would say only "unexpected argument"), or nil.
    static func unknownCommand(_ words: [String]) -> String? {
        guard let first = words.first, !first.hasPrefix("-") else { return nil }
        let names = configuration.subcommands.compactMap { $0.configuration.commandName } + ["help", "exit-codes"]
        guard !names.contains(first), let hint = Suggestions.hint(for: first, in: names) else { return nil }
        return "apicli: '\(first)' is not a command\n  hint: \(hint) (apicli --help lists them)\n"
    }

    /// Saves the cookie files, flushes and ends the process with `code` (or the cookie files' failure).
    static func leave(_ code: Int32) -> Never {
        var code = code
        if let problem = CookieFiles.save() {
            Console.plain.err(fullMessage(for: problem) + "\n")
            if code == 0 { code = exitCode(for: problem).rawValue }
        }
        fflush(nil)
        _exit(code)
    }
}
