import APIDiagnostics
import APITransport
/// Reads a curl command line (as `apicli call --curl` prints it, or a browser's "Copy as cURL")
/// into a `CurlRequest`. Which options take a value is curl's own table (`CurlOptionTable`,
/// generated from curl's documentation), so a value is never read as the URL. Options that change
/// nothing a target holds (`-L`, `-s`, `--compressed`…) are accepted quietly; those that change
/// what is sent and have no place in a target are refused; the rest are warnings naming the option.
struct CurlParser {
    var request = CurlRequest()
    var warnings: [String] = []
    /// The option being read, as the command writes it (`-d`, `--data`), for messages.
    var written = ""
    /// The folder relative file names (`-F f=@x`, `-T x`) are read from.
    let cwd: String

    /// Long names of options that change nothing the server receives, or nothing a target holds
    /// beyond what apicli does itself (output, progress, connection reuse, HTTP version).
    static let quiet: Set<String> = [
        "location", "silent", "show-error", "verbose", "include", "show-headers", "compressed", "fail", "fail-with-body",
        "fail-early", "no-buffer", "progress-bar", "http1.1", "http2", "http2-prior-knowledge", "location-trusted",
        "tr-encoding", "output", "remote-name", "remote-name-all", "remote-header-name", "create-dirs", "no-progress-meter",
        "write-out", "trace", "trace-ascii", "trace-time", "trace-ids", "trace-config", "stderr", "dump-header", "styled-output",
        "keepalive", "no-keepalive", "keepalive-time", "keepalive-cnt", "tcp-nodelay", "tcp-fastopen", "parallel",
        "parallel-max", "parallel-immediate", "raw", "buffer", "disable", "ipv4", "ipv6", "path-as-is", "basic",
        "sessionid", "alpn", "npn", "max-filesize", "retry-connrefused", "retry-all-errors", "etag-save", "libcurl",
        "remove-on-error", "xattr", "clobber", "no-clobber", "output-dir", "rate", "skip-existing", "out-null",
        "compressed-ssh", "http0.9", "suppress-connect-headers", "happy-eyeballs-timeout-ms", "ca-native",
    ]
    /// Options that change what is sent (or where), which a target cannot express: dropping them
    /// would import another request.
    static let refused: [String: String] = [
        "ntlm": "NTLM authentication", "ntlm-wb": "NTLM authentication", "negotiate": "SPNEGO authentication",
        "aws-sigv4": "AWS Signature v4 signing (use auth: { sigv4: } by hand)", "request-target": "a request target other than the URL's path",
        "config": "options read from a file", "variable": "curl variables",
        "expand-url": "curl variables", "expand-data": "curl variables", "expand-header": "curl variables",
        "unix-socket": "a Unix socket", "abstract-unix-socket": "a Unix socket",
        "proxy-header": "headers to a proxy", "oauth2-bearer-proxy": "a proxy bearer token",
        "form-escape": "backslash-escaped form names", "data-urlencode-stdin": "standard input",
    ]

    init(cwd: String) {
        self.cwd = cwd
    }

    mutating func parse(_ words: [String]) throws(APIError) {
        guard let first = words.first, first == "curl" || first.hasSuffix("/curl") else {
            throw .invalid(Diagnostic(file: nil, mark: nil, message: "not a curl command: it does not start with 'curl'",
                                      hint: "pass the whole command, e.g. apicli import curl 'curl https://example.com/x'"))
        }
        var rest = Array(words.dropFirst())[...]
        var endOfOptions = false
        while let word = rest.popFirst() {
            if !endOfOptions, word == "--next" || word == "-:" {
                warnings.append("curl \(word) starts another request; only the first is imported")
                break
            } else if !endOfOptions, word == "--" {
                endOfOptions = true
            } else if !endOfOptions, word.hasPrefix("-"), word.count > 1 {
                try option(word, &rest)
            } else {
                url(word)
            }
        }
        guard request.url != nil else {
            throw .invalid(Diagnostic(file: nil, mark: nil, message: "the curl command has no URL"))
        }
        try conflicts()
    }

    private mutating func url(_ word: String) {
        if request.url == nil {
            request.url = word
        } else {
            warnings.append("a second URL '\(word)' is not imported; a target sends one request")
        }
    }

    /// `-sSL`, `-XPOST`, `-X POST`, `--request POST`, `--no-insecure`.
    private mutating func option(_ word: String, _ rest: inout ArraySlice<String>) throws(APIError) {
        if word.hasPrefix("--") {
            written = word
            let name = try Self.longName(String(word.dropFirst(2)), &warnings)
            if let o = CurlOptionTable.long[name] {
                if o.takesValue {
                    try apply(name, value: value(for: word, &rest))
                } else {
                    try flag(name, on: true)
                }
            } else if name.hasPrefix("no-"), let o = CurlOptionTable.long[String(name.dropFirst(3))], o.boolean {
                try flag(String(name.dropFirst(3)), on: false)
            } else {
                throw .invalid(Diagnostic(file: nil, mark: nil, message: "curl option \(word) is unknown: curl refuses the command",
                                          hint: "check its spelling against curl --help all"))
            }
            return
        }
        var letters = word.dropFirst()[...]
        while let c = letters.popFirst() {
            written = "-\(c)"
            guard let name = CurlOptionTable.short[c], let o = CurlOptionTable.long[name] else {
                throw .invalid(Diagnostic(file: nil, mark: nil, message: "curl option -\(c) (in \(word)) is unknown: curl refuses the command"))
            }
            if o.takesValue {
                // The rest of the word is the value (`-XPOST`), else the next word.
                try apply(name, value: letters.isEmpty ? value(for: "-\(c)", &rest) : String(letters))
                return
            }
            try flag(name, on: true)
        }
    }

    /// A long name as curl reads it: exact, or (as curl before 8.7 did) the one option it is an
    /// unambiguous prefix of, with a warning; `no-NAME` stays as written.
    static func longName(_ name: String, _ warnings: inout [String]) throws(APIError) -> String {
        if CurlOptionTable.long[name] != nil || name.hasPrefix("no-") || name.isEmpty { return name }
        let matches = CurlOptionTable.long.keys.filter { $0.hasPrefix(name) }.sorted()
        guard matches.count == 1 else {
            if matches.isEmpty { return name }
            throw .invalid(Diagnostic(file: nil, mark: nil, message: "curl option --\(name) is ambiguous: it starts \(matches.prefix(4).map { "--" + $0 }.joined(separator: ", "))",
                                      hint: "write the option's whole name"))
        }
        warnings.append("--\(name) is read as --\(matches[0]), as curl 7 reads an abbreviation (curl 8 refuses it): write the whole name")
        return matches[0]
    }

    private func value(for word: String, _ rest: inout ArraySlice<String>) throws(APIError) -> String {
        guard let value = rest.popFirst() else {
            throw .invalid(Diagnostic(file: nil, mark: nil, message: "curl option \(word) needs a value"))
        }
        return value
    }

    /// An option without a value (`on: false` for `--no-NAME`).
    private mutating func flag(_ name: String, on: Bool) throws(APIError) {
        switch name {
        case "insecure": request.insecure = on
        case "get": request.get = on
        case "head": request.head = on
        case "globoff": request.globoff = on
        case "digest": request.digest = on
        case "anyauth":
            warnings.append("curl option --anyauth lets the server choose the authentication; imported as Basic (-u) or as given")
        default:
            try other(name, value: nil)
        }
    }

    /// An option curl knows that no case above maps: quiet, refused, or a warning naming it.
    mutating func other(_ name: String, value: String?) throws(APIError) {
        if Self.quiet.contains(name) { return }
        let shown = (written.isEmpty ? "--\(name)" : written) + (value.map { " \($0)" } ?? "")
        if let what = Self.refused[name] {
            throw .invalid(Diagnostic(file: nil, mark: nil,
                                      message: "curl option \(shown) asks for \(what), which a target cannot express: the import would send another request",
                                      hint: "remove the option if the request does not need it, and import again"))
        }
        warnings.append("curl option \(shown) is not imported")
    }

    /// Pairs curl itself refuses ("You can only select one HTTP request method!").
    private func conflicts() throws(APIError) {
        let data = !request.data.isEmpty && !request.get
        let kinds = [("-d/--data", data), ("-F/--form", !request.form.isEmpty), ("-T/--upload-file", request.uploadFile != nil),
                     ("-I/--head", request.head)].filter(\.1).map(\.0)
        guard kinds.count > 1 else { return }
        throw .invalid(Diagnostic(file: nil, mark: nil,
                                  message: "the curl command has both \(kinds[0]) and \(kinds[1]): curl refuses it (\"You can only select one HTTP request method!\")",
                                  hint: "keep one of them"))
    }
}
