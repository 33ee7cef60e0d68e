import APITargets
import APITransport
import APILive
import APIImport

/// The command lines people type most, read without argument-parser.
///
/// argument-parser reflects every option of a command before it reads a word: each distinct
/// `Option`/`Flag`/`OptionGroup` type's first conformance lookup scans the conformance records of
/// the whole static binary (callgrind: 20.7 M of `call --stub`'s 29 M instructions, after FastPath).
/// These shapes are read here into the commands' plain values instead:
///
///     call TARGET [--stub] [--sample NAME] [-i] [-v] [-q] [--curl] [--dry-run]
///                 [--targets DIR] [--env NAME] [-p name=value]… [-H 'Name: value']…
///     check [--stub] [--all] [--fail-fast] [--targets DIR] [--env NAME] [PATTERN…]
///     list [--json] [--targets DIR] [PATTERN…]
///     validate [--targets DIR] [--env NAME] [FILE…]
///     --version
///
/// Anything else returns nil and argument-parser parses the line as before (FastPath, then the
/// full parser), so every help text, usage line, error and completion stays its own: a word it
/// does not know, an option given twice (but -p and -H), `--opt=value`, combined short flags
/// (`-iv`), `--`, an option without its value or with a value starting with `-`, an empty word, a
/// missing or extra target, and any line whose values the command's `validate()` refuses.
enum HandParser {
    /// A command read by hand, ready to run.
    enum Command {
        case call(CallValues)
        case check(CheckValues)
        case list(ListValues)
        case validate(ValidateValues)
        /// `apicli --version` alone: the version line argument-parser prints (the bench's start-up row).
        case version

        /// `run`, then leave with 0 (what `APICLI.main` does after it): returns only by throwing. A live
        /// call runs on one of NIO's loops from here to the exit (`EventLoopExecutor`; CallValues would put
        /// its send there anyway): leaving from the loop saves the hop back to Swift's pool, which had to
        /// start a thread for it (1.4 ms of a 8 ms call, alternating runs). `nonisolated(nonsending)`
        /// (as `onLoop`): from main's thread straight to the loop, no pool thread started on the way.
        nonisolated(nonsending) func runAndLeave() async throws {
            var loop: EventLoopExecutor?
            if case .call(let values) = self, !values.stub, !values.dryRun { loop = EventLoopExecutor.forOneCall() }
            try await EventLoopExecutor.onLoop(loop) {
                try await run()
                APICLI.leave(0)
            }
        }

        func run() async throws {
            switch self {
            case .version: Console.plain.out(APICLI.configuration.version + "\n")
            case .call(let values): try await values.run()
            case .check(let values): try await values.run()
            case .list(let values): try values.run()
            case .validate(let values): try values.run()
            }
        }
    }

    /// The command `words` (the command line without the program) name, or nil: parse it the long way.
    /// `adHoc`: the curl flags of `call URL`, taken out of the line before (`AdHocOptions.extract`).
    static func parse(_ words: [String], adHoc: AdHocOptions = AdHocOptions()) -> Command? {
        guard let first = words.first else { return nil }
        if words == ["--version"] { return .version }
        let rest = words.dropFirst()
        guard !rest.contains(where: { $0.isEmpty || FastPath.needsFullParser($0) }) else { return nil }
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

    static func call(_ words: ArraySlice<String>) -> CallValues? {
        var values = CallValues(target: "")
        var targets: [String] = []
        var reader = Reader(words)
        while let word = reader.next() {
            switch word {
            case "--stub": guard reader.once("--stub") else { return nil }; values.stub = true
            case "-i", "--include": guard reader.once("--include") else { return nil }; values.include = true
            case "-v", "--verbose": guard reader.once("--verbose") else { return nil }; values.verbose = 1
            case "-q", "--quiet": guard reader.once("--quiet") else { return nil }; values.quiet = true
            case "--curl": guard reader.once("--curl") else { return nil }; values.curl = true
            case "--dry-run": guard reader.once("--dry-run") else { return nil }; values.dryRun = true
            case "--sample": guard let v = reader.value(once: word) else { return nil }; values.sample = v
            case "--targets": guard let v = reader.value(once: word) else { return nil }; values.targets.targets = v
            case "--env": guard let v = reader.value(once: word) else { return nil }; values.environment.environmentName = v
            case "-p", "--param": guard let v = reader.value() else { return nil }; values.request.params.append(v)
            case "-H", "--header": guard let v = reader.value() else { return nil }; values.request.headers.append(v)
            default:
                guard !word.hasPrefix("-") else { return nil }
                targets.append(word)
            }
        }
        guard targets.count == 1 else { return nil }
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
        var values = CheckValues()
        var reader = Reader(words)
        while let word = reader.next() {
            switch word {
            case "--stub": guard reader.once(word) else { return nil }; values.stub = true
            case "--all": guard reader.once(word) else { return nil }; values.all = true
            case "--fail-fast": guard reader.once(word) else { return nil }; values.failFast = true
            case "--targets": guard let v = reader.value(once: word) else { return nil }; values.targets.targets = v
            case "--env": guard let v = reader.value(once: word) else { return nil }; values.environment.environmentName = v
            default:
                guard !word.hasPrefix("-") else { return nil }
                values.patterns.append(word)
            }
        }
        do {
            try values.request.validate()
            try values.validate()
        } catch {
            return nil
        }
        return values
    }

    static func list(_ words: ArraySlice<String>) -> ListValues? {
        var values = ListValues()
        var reader = Reader(words)
        while let word = reader.next() {
            switch word {
            case "--json": guard reader.once(word) else { return nil }; values.json = true
            case "--targets": guard let v = reader.value(once: word) else { return nil }; values.targets.targets = v
            default:
                guard !word.hasPrefix("-") else { return nil }
                values.patterns.append(word)
            }
        }
        return values
    }

    static func validate(_ words: ArraySlice<String>) -> ValidateValues? {
        var values = ValidateValues()
        var reader = Reader(words)
        while let word = reader.next() {
            switch word {
            case "--targets": guard let v = reader.value(once: word) else { return nil }; values.targets.targets = v
            case "--env": guard let v = reader.value(once: word) else { return nil }; values.environment.environmentName = v
            default:
                guard !word.hasPrefix("-") else { return nil }
                values.files.append(word)
            }
        }
        return values
    }

    /// The words after the command, one at a time, and which options were given.
    struct Reader {
        private var words: ArraySlice<String>
        /// An array, not a Set: a handful of names, and a Set<String> would cost the run its
        /// first Hashable lookup (a scan of the binary's conformance records, callgrind).
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

        /// The value of an option that may be given once.
        mutating func value(once option: String) -> String? {
            guard once(option) else { return nil }
            return value()
        }
    }
}
