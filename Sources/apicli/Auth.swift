import APITargets
import APISend
import ArgumentParser

extension APICLI {
    struct Auth: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "auth",
            abstract: "Manage the OAuth2 tokens apicli keeps.",
            subcommands: [Clear.self]
        )

        struct Clear: ParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "clear",
                abstract: "Remove every cached OAuth2 token ($APICLI_CACHE, else $XDG_CACHE_HOME/apicli, else ~/.cache/apicli).",
                discussion: "The next request of an oauth2 target fetches a new token. Exit code: 0."
            )

            func run() throws {
                Terminal.setUp()
                let (removed, folder) = OAuth2Tokens.clear()
                Console.plain.out("removed \(removed) token\(removed == 1 ? "" : "s") from \(folder)\n")
            }
        }
    }
}
