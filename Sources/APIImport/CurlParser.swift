import APIDiagnostics
import APITransport
/// Reads a curl command line (as `apicli call --curl` prints it, or a browser's "Copy as cURL")
/// into a `CurlRequest`. Options that change nothing a target holds (`-L`, `-s`, `--compressed`…)
/// are accepted quietly; others that cannot be mapped are warnings, never silently dropped.
struct CurlParser {
    var request = CurlRequest()
    var warnings: [String] = []
    /// The folder relative file names (`-F f=@x`, `-T x`) are read from.
    let cwd: String

    static let quiet: Set<String> = [
        "-L", "--location", "-s", "--silent", "-S", "--show-error", "-v", "--verbose", "-i", "--include",
        "--compressed", "-f", "--fail", "--fail-with-body", "-N", "--no-buffer",
        "-#", "--progress-bar", "--http1.1", "--http2", "--location-trusted", "--tr-encoding",
    ]
    /// Options with a value that apicli has no place for.
    static let unmappedWithValue: Set<String> = [
        "--connect-timeout", "--retry", "--retry-delay", "--retry-max-time", "-w", "--write-out", "-x", "--proxy",
        "--resolve", "-E", "--cert", "--key", "--capath", "-c", "--cookie-jar", "-r", "--range", "--limit-rate",
        "--max-redirs", "-K", "--config", "--noproxy", "--interface", "--proto", "--proto-redir", "--ciphers",
        "-z", "--time-cond", "-o", "--output", "-y", "-Y", "--speed-time", "--speed-limit", "--connect-to",
    ]
    /// Short options that take a value (`-XPOST` and `-X POST` both work).
    static let shortWithValue: Set<Character> = ["X", "H", "d", "F", "u", "m", "A", "e", "b", "T", "o", "w", "x", "E", "c", "r", "K", "z", "y", "Y"]

    init(cwd: String) {
        self.cwd = cwd
    }

    mutating func parse(_ words: [String]) throws(APIError) {
        guard let first = words.first, first == "curl" || first.hasSuffix("/curl") else {
            throw .invalid(Diagnostic(file: nil, mark: nil, message: "not a curl command: it does not start with 'curl'",
                                      hint: "pass the whole command, e.g. apicli import curl 'curl https://example.com/x'"))
        }
        var rest = Array(words.dropFirst())[...]
        while let word = rest.popFirst() {
            if word.hasPrefix("-"), word.count > 1 {
                try option(word, &rest)
            } else if request.url == nil {
                request.url = word
            } else {
                warnings.append("a second URL '\(word)' is not imported; a target sends one request")
            }
        }
        guard request.url != nil else {
            throw .invalid(Diagnostic(file: nil, mark: nil, message: "the curl command has no URL"))
        }
    }

    private mutating func option(_ word: String, _ rest: inout ArraySlice<String>) throws(APIError) {
        if !word.hasPrefix("--"), word.count > 2 {
            let flag = word.dropFirst().first!
            if Self.shortWithValue.contains(flag) {
                try apply("-\(flag)", value: String(word.dropFirst(2)))
                return
            }
            for c in word.dropFirst() { try option("-\(c)", &rest) }
            return
        }
        if Self.quiet.contains(word) { return }
        if let handled = try flag(word) { if handled { return } }
        guard let value = rest.popFirst() else {
            throw .invalid(Diagnostic(file: nil, mark: nil, message: "curl option \(word) needs a value"))
        }
        try apply(word, value: value)
    }

    /// Options without a value: true when handled, nil when the option takes a value.
    private mutating func flag(_ word: String) throws(APIError) -> Bool? {
        switch word {
        case "-k", "--insecure": request.insecure = true
        case "-G", "--get": request.get = true
        case "-I", "--head": request.head = true
        case "-g", "--globoff": request.globoff = true
        default:
            if Self.unmappedWithValue.contains(word) || Self.valueOptions.contains(word) { return nil }
            warnings.append("curl option \(word) is not imported")
        }
        return true
    }
}
