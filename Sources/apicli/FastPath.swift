import ArgumentParser

/// Parses the hot commands (`call`, `check`, `validate`, `list`) with the subcommand's own parser.
///
/// `APICLI.parseAsRoot` builds the argument sets of every subcommand, twice (once to look for a
/// completion-script request, once for passthrough arguments): 26 M of `call --stub`'s 33.5 M
/// instructions (callgrind, release binary), mostly the Swift runtime's conformance lookups on each
/// option's type. The subcommand's own `parseAsRoot` reflects only its own options.
///
/// It is only a shortcut: on a word that asks for help, a version, a completion script or the tool's
/// dump, or on any error of the short parse, the caller parses the whole command line as before, so
/// every help text, usage line and error message stays argument-parser's own (FastPathGoldenTests).
enum FastPath {
    /// The command `words` name, parsed by its own parser; nil when the full parser must answer.
    static func parse(_ words: [String]) -> sending ParsableCommand? {
        guard let first = words.first, let command = commands[first] else { return nil }
        let rest = Array(words.dropFirst())
        guard !rest.contains(where: needsFullParser) else { return nil }
        // A help request parses into argument-parser's own help command (`-vh` asks for help too):
        // only the command itself is taken.
        guard let parsed = try? command.parseAsRoot(rest), type(of: parsed) == command else { return nil }
        return parsed
    }

    static let commands: [String: ParsableCommand.Type] = [
        "call": APICLI.Call.self,
        "check": APICLI.Check.self,
        "validate": APICLI.Validate.self,
        "list": APICLI.List.self,
    ]

    /// Words the root parser treats itself (help, version, completion, the tool-info dump), or that
    /// its subcommand lookup could read as a command name: those go the long way.
    static func needsFullParser(_ word: String) -> Bool {
        switch word {
        case "help", "-h", "--help", "-help", "--version", "--experimental-dump-help": return true
        default: return word.hasPrefix("--generate-completion") || word.hasPrefix("---completion")
        }
    }
}
