import APISupport
import APITargets
/// A `.http` / `.rest` file (the JetBrains HTTP Client format, also read by VS Code's REST Client,
/// httpyac and Kulala) cut into its requests, by hand, line by line: requests are separated by
/// `###` lines (the rest of the line is the request's title); before a request line stand comments
/// (`#`, `//`), request tags (`# @name x`, `# @no-redirect`), in-file variables (`@host = …`) and
/// pre-request scripts (`< {% … %}`); then the request line (`METHOD URL [HTTP/1.1]`, the URL
/// continued on indented lines), headers up to a blank line, and the body up to the next `###`,
/// response handler (`> {% … %}`, `> file.js`), output redirect (`>> file`) or, as httpyac writes
/// it, a recorded response (`HTTP/1.1 200 OK`) or the next request line after a blank line.
/// Everything that is not part of a request is kept as a note with its line, for warnings.
struct HttpFile {
    struct Request {
        /// The line of the request line (1-based).
        var line: Int
        var title: String?
        var method: String
        var url: String
        var headers: [(name: String, value: String, line: Int)] = []
        var body: [String] = []
        var bodyLine = 0
        /// `# @tag value` lines before the request line.
        var tags: [(tag: String, value: String, line: Int)] = []
        /// httpyac's recorded response written after the request (`HTTP/1.1 200 OK`, headers, body): its first line and lines.
        var response: (line: Int, lines: [String])?
        /// What stands with the request but is not imported (scripts, handlers): what, line.
        var skipped: [(what: String, line: Int)] = []
    }

    var requests: [Request] = []
    /// `@name = value` lines, in order.
    var variables: [(name: String, value: String, line: Int)] = []
    /// Lines that belong to no request and say something (scripts outside a request, stray text).
    var notes: [(message: String, line: Int)] = []

    /// HTTP methods a request line starts with; other all-caps words that name a protocol
    /// (`GRPC`, `WEBSOCKET`, `MQTT`) are requests apicli cannot send.
    static let methods: Set<String> = ["GET", "HEAD", "POST", "PUT", "DELETE", "CONNECT", "OPTIONS", "TRACE", "PATCH",
                                       "QUERY", "PROPFIND", "PROPPATCH", "MKCOL", "COPY", "MOVE", "LOCK", "UNLOCK",
                                       "SEARCH", "REPORT", "PURGE", "LINK", "UNLINK"]
    static let otherProtocols: Set<String> = ["GRPC", "WEBSOCKET", "WS", "WSS", "SSE", "MQTT", "AMQP", "GRAPHQL", "EVENTSOURCE"]

    private enum State { case preamble, url, headers, body, after, response }

    init(text: String) {
        let lines = text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" })
            .map { $0.hasSuffix("\r") ? String($0.dropLast()) : String($0) }
        var state = State.preamble
        var current: Request?
        var title: String?
        var tags: [(tag: String, value: String, line: Int)] = []
        var pendingSkipped: [(what: String, line: Int)] = []
        var lastStray = -1
        var i = 0
        func finish() {
            guard var r = current else { return }
            while let last = r.body.last, last.trimmingWhitespace().isEmpty { r.body.removeLast() }
            while let first = r.body.first, first.trimmingWhitespace().isEmpty {
                r.body.removeFirst()
                r.bodyLine += 1
            }
            requests.append(r)
            current = nil
        }
        /// Skips a `{% … %}` script starting at line `start`; returns the line after it.
        func skipScript(from start: Int) -> Int {
            let first = lines[start]
            if let open = first.firstRange(of: "{%"), first[open.upperBound...].contains("%}") { return start + 1 }
            var j = start + 1
            while j < lines.count {
                if lines[j].contains("%}") { return j + 1 }
                j += 1
            }
            return j
        }
        func begin(_ line: String, at n: Int) {
            let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
            var r: Request
            if words.count >= 2, Self.isMethodWord(words[0]) {
                r = Request(line: n, title: title, method: words[0], url: words[1])
                if words.count > 2, !words[2].hasPrefix("HTTP/") { r.url += " " + words[2...].joined(separator: " ") }
            } else {
                r = Request(line: n, title: title, method: "GET", url: words.first ?? "")
                if words.count > 1, !words[1].hasPrefix("HTTP/") { r.url += " " + words[1...].joined(separator: " ") }
            }
            r.tags = tags
            r.skipped = pendingSkipped
            tags = []
            pendingSkipped = []
            title = nil
            current = r
            state = .url
        }
        while i < lines.count {
            let raw = lines[i]
            let n = i + 1
            let t = raw.trimmingWhitespace()
            if t.hasPrefix("###") {
                finish()
                let rest = String(t.dropFirst(3)).trimmingWhitespace()
                title = rest.isEmpty || rest.allSatisfy({ $0 == "#" }) ? nil : rest
                tags = []
                if !pendingSkipped.isEmpty { notes += pendingSkipped.map { ("\($0.what) before no request is not imported", $0.line) } }
                pendingSkipped = []
                state = .preamble
                i += 1
                continue
            }
            switch state {
            case .preamble:
                if t.isEmpty { i += 1; continue }
                if t.hasPrefix("/*") {  // httpyac's block comment
                    while i < lines.count, !lines[i].contains("*/") { i += 1 }
                    i += 1
                    continue
                }
                if t.hasPrefix("#") || t.hasPrefix("//") {
                    if let tag = Self.tag(t) { tags.append((tag.tag, tag.value, n)) }
                    i += 1
                    continue
                }
                if t == "{{" || (t.hasPrefix("{{") && !t.contains("}}")) {
                    pendingSkipped.append(("the script block {{ … }}", n))
                    i = Self.skipDoubleBraces(lines, from: i)
                    continue
                }
                if t.hasPrefix("@"), let eq = t.firstIndex(of: "=") {
                    let name = String(t[t.index(after: t.startIndex)..<eq]).trimmingWhitespace()
                    if !name.isEmpty, !name.contains(" ") {
                        variables.append((name, String(t[t.index(after: eq)...]).trimmingWhitespace(), n))
                        i += 1
                        continue
                    }
                }
                if t.hasPrefix("<"), t.dropFirst().trimmingWhitespace().hasPrefix("{%") {
                    pendingSkipped.append(("the pre-request script", n))
                    i = skipScript(from: i)
                    continue
                }
                if t.hasPrefix("< ") {
                    pendingSkipped.append(("the pre-request script \(t.dropFirst(2).trimmingWhitespace())", n))
                    i += 1
                    continue
                }
                let words = t.split(separator: " ", maxSplits: 1)
                guard (words.count == 2 && Self.isMethodWord(String(words[0]))) || Self.isURL(t) else {
                    // httpyac's GraphQL fragments and other text that starts no request
                    if lastStray != n - 1 { notes.append(("text that is not a request line ('\(t.prefix(40))'); it is not imported", n)) }
                    lastStray = n  // one warning for lines that follow each other
                    i += 1
                    continue
                }
                begin(t, at: n)
                i += 1
            case .url:
                if let first = raw.first, first == " " || first == "\t", !t.isEmpty {
                    // `    &size=10 HTTP/1.1`: the version may end the last line of the target
                    var words = t.split(separator: " ")
                    if words.count > 1, words.last?.hasPrefix("HTTP/") == true { words.removeLast() }
                    current?.url += words.joined(separator: " ")
                    i += 1
                    continue
                }
                state = .headers
            case .headers:
                if t.isEmpty {
                    state = .body
                    current?.bodyLine = n + 1
                    i += 1
                    continue
                }
                if t.hasPrefix("#") || t.hasPrefix("//") {
                    if let tag = Self.tag(t) { current?.tags.append((tag.tag, tag.value, n)) }
                    i += 1
                    continue
                }
                if let colon = t.firstIndex(of: ":"), Self.isHeaderName(t[..<colon]) {
                    current?.headers.append((String(t[..<colon]).trimmingWhitespace(), String(t[t.index(after: colon)...]).trimmingWhitespace(), n))
                } else if let handled = handler(t, at: n, lines: lines, i: &i, current: &current) {
                    state = handled
                    continue
                } else {
                    // No blank line before the body: a body that starts right below the headers.
                    state = .body
                    current?.bodyLine = n
                    continue
                }
                i += 1
            case .body:
                if let handled = handler(t, at: n, lines: lines, i: &i, current: &current) {
                    state = handled
                    continue
                }
                let previousBlank = i > 0 && lines[i - 1].trimmingWhitespace().isEmpty
                if previousBlank, t.hasPrefix("HTTP/"), t.dropFirst(5).first?.isNumber == true {
                    current?.response = (n, [t])
                    state = .response
                    i += 1
                    continue
                }
                if previousBlank, t == "{{" || (t.hasPrefix("{{") && !t.contains("}}")) {
                    current?.skipped.append(("the script block {{ … }}", n))
                    i = Self.skipDoubleBraces(lines, from: i)
                    continue
                }
                if previousBlank, Self.isRequestLine(t) {
                    finish()
                    begin(t, at: n)
                    i += 1
                    continue
                }
                // `@name = value` right below a request (Kulala, httpyac): a variable, not the body
                if current?.body.isEmpty == true, t.hasPrefix("@"), let eq = t.firstIndex(of: "="),
                   case let name = String(t[t.index(after: t.startIndex)..<eq]).trimmingWhitespace(), !name.isEmpty, !name.contains(" ") {
                    variables.append((name, String(t[t.index(after: eq)...]).trimmingWhitespace(), n))
                    i += 1
                    continue
                }
                // The specification's line comments stand in bodies too (from the start of a line, indented or not).
                if !(t.hasPrefix("#") || t.hasPrefix("//")) { current?.body.append(raw) }
                i += 1
            case .after:
                if t.isEmpty || t.hasPrefix("#") || t.hasPrefix("//") { i += 1; continue }
                if let handled = handler(t, at: n, lines: lines, i: &i, current: &current) {
                    state = handled
                    continue
                }
                if Self.isRequestLine(t) || t.hasPrefix("@") {
                    finish()
                    state = .preamble
                    continue
                }
                notes.append(("text after the response handler is not part of a request; it is not imported", n))
                i += 1
            case .response:
                current?.response?.lines.append(raw)
                i += 1
            }
        }
        finish()
        if !pendingSkipped.isEmpty { notes += pendingSkipped.map { ("\($0.what) before no request is not imported", $0.line) } }
    }

    /// A response handler, output redirect or response reference at line `i`: recorded as
    /// skipped, `i` moved past it, the state after it; nil when the line is none of those.
    private func handler(_ t: String, at n: Int, lines: [String], i: inout Int, current: inout Request?) -> State? {
        if t.hasPrefix(">>") {
            current?.skipped.append(("the response redirect '\(t)' (the response is not saved to a file)", n))
            i += 1
            return .after
        }
        if t.hasPrefix("<>") {
            current?.skipped.append(("the response reference '\(t)'", n))
            i += 1
            return .after
        }
        if t.hasPrefix(">") {
            let rest = t.dropFirst().trimmingWhitespace()
            if rest.hasPrefix("{%") {
                current?.skipped.append(("the response handler script", n))
                var j = i
                while j < lines.count {
                    let line = j == i ? String(rest.dropFirst(2)) : lines[j]
                    j += 1
                    if line.contains("%}") { break }
                }
                i = j
            } else {
                current?.skipped.append(("the response handler \(rest)", n))
                i += 1
            }
            return .after
        }
        return nil
    }

    /// `# @name value`, `// @no-redirect`: the tag and its value; nil for another comment.
    static func tag(_ t: String) -> (tag: String, value: String)? {
        let text = (t.hasPrefix("#") ? t.drop { $0 == "#" } : t.dropFirst(2)).trimmingWhitespace()
        guard text.hasPrefix("@") else { return nil }
        let body = text.dropFirst()
        let tag = String(body.prefix { !$0.isWhitespace && $0 != "=" && $0 != ":" })
        var value = String(body.dropFirst(tag.count)).trimmingWhitespace()
        if value.hasPrefix("=") || value.hasPrefix(":") { value = String(value.dropFirst()).trimmingWhitespace() }
        return tag.isEmpty ? nil : (tag, value)
    }

    /// The line after an httpyac script block (`{{` … `}}` on lines of their own) starting at `start`.
    static func skipDoubleBraces(_ lines: [String], from start: Int) -> Int {
        var j = start + 1
        while j < lines.count {
            if lines[j].trimmingWhitespace().hasPrefix("}}") { return j + 1 }
            j += 1
        }
        return j
    }

    /// A URL alone on a request line (the method left out: GET).
    static func isURL(_ t: String) -> Bool {
        let first = t.prefix { $0 != " " }
        return first.hasPrefix("http://") || first.hasPrefix("https://") || first.hasPrefix("{{") || first.hasPrefix("/")
    }

    /// A header name: a token, or made of `{{variables}}`.
    static func isHeaderName(_ s: Substring) -> Bool {
        let name = s.trimmingWhitespace()
        return TargetFile.isToken(name) || (name.hasPrefix("{{") && !name.contains(" ") && !name.contains("\""))
    }

    /// `GET`, `POST`, … and the words of protocols apicli does not send (`GRPC`, `WEBSOCKET`).
    static func isMethodWord(_ w: String) -> Bool {
        methods.contains(w) || otherProtocols.contains(w)
    }

    /// `METHOD URL…` where the URL starts as one does (`http`, `/`, `{{`): a new request inside a section.
    static func isRequestLine(_ t: String) -> Bool {
        let words = t.split(separator: " ", maxSplits: 2)
        guard words.count >= 2, methods.contains(String(words[0])) || otherProtocols.contains(String(words[0])) else { return false }
        let url = words[1]
        return url.hasPrefix("http://") || url.hasPrefix("https://") || url.hasPrefix("/") || url.hasPrefix("{{")
            || url.hasPrefix("ws://") || url.hasPrefix("wss://")
    }
}
