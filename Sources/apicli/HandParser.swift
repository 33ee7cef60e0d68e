import APISupport
import APITargets
import APITransport
import APISend
import APIImport

/// The command lines people type most, read without argument-parser.
///
/// argument-parser reflects every option of a command before it reads a word: each distinct
/// `Option`/`Flag`/`OptionGroup` type's first conformance lookup scans the conformance records of
/// the whole static binary, most of a `call --stub`'s start-up (docs/dev/benchmarks.md).
/// These shapes are read here into the commands' plain values instead:
///
///     call TARGET [--stub] [--sample NAME] [-i] [-v] [-q] [--curl] [--dry-run]
///                 [--targets DIR] [--env NAME] [-p name=value]… [-H 'Name: value']…
///     check [--stub] [--all] [--fail-fast] [--jobs N] [--targets DIR] [--env NAME] [PATTERN…]
///     list [--json] [--targets DIR] [PATTERN…]
///     validate [--targets DIR] [--env NAME] [FILE…]
///     --version
///
/// Anything else returns nil and argument-parser parses the whole line, so every help text, usage
/// line, error and completion stays its own: a word it does not know, an option given twice (but -p
/// and -H), `--opt=value`, combined short flags (`-iv`), `--`, an option without its value or with a
/// value starting with `-`, an empty word, a missing or extra target, and any line whose values the
/// command's `validate()` refuses. The options it reads are tables (`callWords`, …) that
/// `HandParserTests` holds against each command's own argument-parser declarations.
enum HandParser {
    /// A command read by hand, ready to run.
    enum Command {
        case call(CallValues)
        case check(CheckValues)
        case list(ListValues)
        case validate(ValidateValues)
        /// `apicli --version` alone: the version line argument-parser prints (the bench's start-up row).
        case version

        /// Runs the command, then leaves with 0 (or with `APICLI.finish`'s code): never returns. `--version`,
        /// `list` and `validate` run here, with no task; a stub or dry-run call as a task on this
        /// thread; a live call as a task on one of NIO's loops from here to the exit (`OneCall`): its
        /// exchange and its body's writes on that one thread. `check` on Swift's pool.
        func runAndLeave() -> Never {
            do {
                switch self {
                // The constant, not argument-parser's configuration (the same text): building that
                // (every subcommand's type) would be most of what `--version` does.
                case .version: Console.plain.out(apicliVersion + "\n")
                case .list(let values): try values.run()
                case .validate(let values): try values.run()
                case .call(let values):
                    OneCall.start(values.stub || values.dryRun ? .thisThread : .loop) { await Self.leave { try await values.run() } }
                case .check(let values):
                    OneCall.start(.pool) { await Self.leave { try await values.run() } }
                }
            } catch {
                APICLI.finish(error)
            }
            APICLI.leave(0)
        }

        /// `body`, then leave with 0 (or with `APICLI.finish`'s code).
        private static func leave(_ body: () async throws -> Void) async -> Never {
            do { try await body() } catch { APICLI.finish(error) }
            APICLI.leave(0)
        }
    }

    /// The command `words` (the command line without the program) name, or nil: parse it the long way.
    /// `adHoc`: the curl flags of `call URL`, taken out of the line before (`AdHocOptions.extract`).
    static func parse(_ words: [String], adHoc: AdHocOptions = AdHocOptions()) -> Command? {
        guard let first = words.first else { return nil }
        if words == ["--version"] { return .version }
        let rest = words.dropFirst()
        guard !rest.contains(where: { $0.isEmpty || needsFullParser($0) }) else { return nil }
        switch first {
        case "call": return call(rest).map { values in
            var values = values
            values.adHoc = adHoc
            return Command.call(values)
        }
        case "check": return check(rest).map(Command.check)
        case "list": return list(rest).map(Command.list)
        case "validate": return validate(rest).map(Command.validate)
        default: return nil
        }
    }

    /// Words the root parser treats itself (help, version, completion, the tool-info dump), or that
    /// its subcommand lookup could read as a command name: those go the long way.
    static func needsFullParser(_ word: String) -> Bool {
        switch word {
        case "help", "-h", "--help", "-help", "--version", "--experimental-dump-help": return true
        default: return word.hasPrefix("--generate-completion") || word.hasPrefix("---completion")
        }
    }

    /// One option the hand parser reads: its names (as the command declares them for
    /// argument-parser; `HandParserTests` compares them with the command's own declarations),
    /// whether it takes a value, whether it may be given more than once, and where it goes.
    struct Word<Values>: Sendable {
        var names: [String]
        var takesValue: Bool
        var repeatable = false
        /// Whether the value is one the option takes (else the line goes to argument-parser, which
        /// says why): a number's digits, read by the same `Int.init` argument-parser reads them with.
        var accepts: @Sendable (String) -> Bool = { _ in true }
        var set: @Sendable (inout Values, String) -> Void

        static func flag(_ names: String..., set: @escaping @Sendable (inout Values) -> Void) -> Word {
            Word(names: names, takesValue: false) { values, _ in set(&values) }
        }

        static func option(_ names: String..., repeatable: Bool = false, set: @escaping @Sendable (inout Values, String) -> Void) -> Word {
            Word(names: names, takesValue: true, repeatable: repeatable, set: set)
        }

        /// An option whose value is a whole number (`Int`, as argument-parser reads an `Int` option).
        static func number(_ names: String..., set: @escaping @Sendable (inout Values, Int) -> Void) -> Word {
            Word(names: names, takesValue: true, accepts: { Int($0) != nil }) { values, text in
                if let n = Int(text) { set(&values, n) }
            }
        }
    }

    static let callWords: [Word<CallValues>] = [
        .flag("--stub") { $0.stub = true },
        .flag("-i", "--include") { $0.include = true },
        .flag("-v", "--verbose") { $0.verbose = 1 },
        .flag("-q", "--quiet") { $0.quiet = true },
        .flag("--curl") { $0.curl = true },
        .flag("--dry-run") { $0.dryRun = true },
        .option("--sample") { $0.sample = $1 },
        .option("--targets") { $0.targets.targets = $1 },
        .option("--env") { $0.environment.environmentName = $1 },
        .option("-p", "--param", repeatable: true) { $0.request.params.append($1) },
        .option("-H", "--header", repeatable: true) { $0.request.headers.append($1) },
    ]

    static let checkWords: [Word<CheckValues>] = [
        .flag("--stub") { $0.stub = true },
        .flag("--all") { $0.all = true },
        .flag("--fail-fast") { $0.failFast = true },
        // `--jobs` by hand: argument-parser's reading of `check` costs the run ~2.5 ms of CPU before
        // its first request (the bench's `check --jobs 16` line).
        .number("--jobs") { $0.jobs = $1 },
        .option("--targets") { $0.targets.targets = $1 },
        .option("--env") { $0.environment.environmentName = $1 },
    ]

    static let listWords: [Word<ListValues>] = [
        .flag("--json") { $0.json = true },
        .option("--targets") { $0.targets.targets = $1 },
    ]

    static let validateWords: [Word<ValidateValues>] = [
        .option("--targets") { $0.targets.targets = $1 },
        .option("--env") { $0.environment.environmentName = $1 },
    ]

    /// Reads `words` into `values` with `table`; a word that is no option is a positional
    /// (`positional`). Nil for anything the table does not take as argument-parser would.
    static func read<Values>(_ words: ArraySlice<String>, into values: Values, _ table: [Word<Values>],
                             positional: (inout Values, String) -> Void) -> Values? {
        var values = values
        var reader = Reader(words)
        while let word = reader.next() {
            guard let option = table.first(where: { $0.names.contains(word) }) else {
                guard !word.hasPrefix("-") else { return nil }
                positional(&values, word)
                continue
            }
            let name = option.names[option.names.count - 1]
            if !option.repeatable, !reader.once(name) { return nil }
            if option.takesValue {
                guard let value = reader.value(), option.accepts(value) else { return nil }
                option.set(&values, value)
            } else {
                option.set(&values, "")
            }
        }
        return values
    }

    static func call(_ words: ArraySlice<String>) -> CallValues? {
        var targets: [String] = []
        guard var values = read(words, into: CallValues(target: ""), callWords, positional: { _, word in targets.append(word) }),
              targets.count == 1 else { return nil }
        values.target = targets[0]
        do {
            try values.request.validate()
            try values.form.validate()
            try values.validate()
        } catch {
            return nil
        }
        return values
    }

    static func check(_ words: ArraySlice<String>) -> CheckValues? {
        guard let values = read(words, into: CheckValues(), checkWords, positional: { $0.patterns.append($1) }) else { return nil }
        do {
            try values.request.validate()
            try values.validate()
        } catch {
            return nil
        }
        return values
    }

    static func list(_ words: ArraySlice<String>) -> ListValues? {
        read(words, into: ListValues(), listWords, positional: { $0.patterns.append($1) })
    }

    static func validate(_ words: ArraySlice<String>) -> ValidateValues? {
        read(words, into: ValidateValues(), validateWords, positional: { $0.files.append($1) })
    }

    /// The words after the command, one at a time, and which options were given.
    struct Reader {
        private var words: ArraySlice<String>
        /// An array, not a Set: a handful of names, and a Set<String> would cost the run its
        /// first Hashable lookup (a scan of the binary's conformance records).
        private var seen: [String] = []

        init(_ words: ArraySlice<String>) { self.words = words }

        mutating func next() -> String? { words.popFirst() }

        /// False when `option` (named by its long name) was given before.
        mutating func once(_ option: String) -> Bool {
            guard !seen.contains(option) else { return false }
            seen.append(option)
            return true
        }

        /// The option's value: the next word, unless it is missing or starts with `-` (argument-parser
        /// reads that as an option, or a negative number: its answer, not ours).
        mutating func value() -> String? {
            guard let value = words.first, !value.hasPrefix("-") else { return nil }
            return words.popFirst()
        }
    }
}
