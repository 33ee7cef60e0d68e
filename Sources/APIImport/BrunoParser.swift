import APISupport
/// A `.bru` file (Bruno's own format, the Bru language) read by hand: a sequence of blocks, each a
/// name at the start of a line followed by `{` (or `[` for a list) and closed by a `}` (`]`) alone
/// at the start of a line. Three kinds, by the block's name:
/// - dictionaries (`meta`, `get`, `headers`, `params:query`, `auth:bearer`, `vars:pre-request`,
///   `body:form-urlencoded`, `assert`, `settings`, …): `key: value` lines, a leading `~` marks a
///   disabled entry, `@annotation(…)` lines stand before a pair, a value may be a `'''` block of lines;
/// - text blocks (`body:json`, `body:text`, `body:graphql`, `script:pre-request`, `tests`, `docs`,
///   `example`): the lines as written, less the two spaces of indentation;
/// - lists (`vars:secret [ a, b ]`).
/// What the file holds outside blocks is reported, not guessed at.
struct BruFile {
    struct Pair {
        var key: String
        var value: String
        var enabled: Bool
        var line: Int
    }

    struct Block {
        var name: String
        var line: Int
        var pairs: [Pair] = []
        var text: String = ""
        var items: [String] = []
    }

    var blocks: [Block] = []
    /// Lines that are not part of a block: line and text.
    var stray: [(line: Int, text: String)] = []

    /// Blocks whose content is text, not `key: value` pairs.
    static func isText(_ name: String) -> Bool {
        name.hasPrefix("body") && !["body:form-urlencoded", "body:multipart-form", "body:file", "body:grpc", "body:ws"].contains(name)
            || name.hasPrefix("script") || name == "tests" || name == "docs" || name == "example"
    }

    init(text: String) {
        let lines = text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" })
            .map { $0.hasSuffix("\r") ? String($0.dropLast()) : String($0) }
        var i = 0
        while i < lines.count {
            let line = lines[i]
            let t = line.trimmingWhitespace()
            if t.isEmpty { i += 1; continue }
            guard let open = t.last, open == "{" || open == "[", line.first.map({ !$0.isWhitespace }) == true else {
                stray.append((i + 1, t))
                i += 1
                continue
            }
            let name = String(t.dropLast()).trimmingWhitespace()
            let close: String = open == "{" ? "}" : "]"
            var end = i + 1
            while end < lines.count, lines[end].trimmingTrailingSpaces() != close { end += 1 }
            var block = Block(name: name, line: i + 1)
            let body = Array(lines[(i + 1)..<min(end, lines.count)])
            if open == "[" {
                block.items = body.flatMap { $0.split(separator: ",") }.map { $0.trimmingWhitespace() }.filter { !$0.isEmpty }
            } else if Self.isText(name) {
                block.text = body.map { $0.hasPrefix("  ") ? String($0.dropFirst(2)) : $0 }.joined(separator: "\n")
            } else {
                block.pairs = Self.pairs(body, firstLine: i + 2)
            }
            blocks.append(block)
            i = end + 1
        }
    }

    /// `key: value` lines; annotations skipped; `'''` values joined (their common indentation removed).
    static func pairs(_ lines: [String], firstLine: Int) -> [Pair] {
        var out: [Pair] = []
        var i = 0
        while i < lines.count {
            let t = lines[i].trimmingWhitespace()
            let n = firstLine + i
            i += 1
            if t.isEmpty { continue }
            if t.hasPrefix("@"), let open = t.firstIndex(of: "("), !t[..<open].contains(":") {
                // `@description('''` … `''')`: an annotation over several lines
                if t[open...].hasPrefix("('''"), !t[t.index(open, offsetBy: 4)...].contains("'''") {
                    while i < lines.count, !lines[i].contains("''')") { i += 1 }
                    i += 1
                }
                continue
            }
            if t.hasPrefix("@"), !t.contains(":") { continue }  // `@number`, `@boolean`
            var rest = t[...]
            var enabled = true
            if rest.hasPrefix("~") {
                enabled = false
                rest = rest.dropFirst()
            }
            var key: String
            if rest.hasPrefix("\"") {
                var k = ""
                var j = rest.index(after: rest.startIndex)
                while j < rest.endIndex, rest[j] != "\"" {
                    if rest[j] == "\\", rest.index(after: j) < rest.endIndex { j = rest.index(after: j) }
                    k.append(rest[j])
                    j = rest.index(after: j)
                }
                key = k
                rest = j < rest.endIndex ? rest[rest.index(after: j)...] : ""
                guard let colon = rest.firstIndex(of: ":") else { continue }
                rest = rest[rest.index(after: colon)...]
            } else {
                guard let colon = rest.firstIndex(of: ":") else {
                    out.append(Pair(key: String(rest), value: "", enabled: enabled, line: n))
                    continue
                }
                key = String(rest[..<colon]).trimmingWhitespace()
                rest = rest[rest.index(after: colon)...]
            }
            var value = rest.trimmingWhitespace()
            if value.hasPrefix("'''") {
                var block: [String] = []
                let after = value.dropFirst(3)
                if let end = after.firstRange(of: "'''") {
                    value = String(after[..<end.lowerBound])
                } else {
                    while i < lines.count, !lines[i].trimmingWhitespace().hasPrefix("'''") {
                        block.append(lines[i])
                        i += 1
                    }
                    let tail = i < lines.count ? lines[i].trimmingWhitespace().dropFirst(3).trimmingWhitespace() : ""
                    i += 1
                    let indent = block.filter { !$0.trimmingWhitespace().isEmpty }.map { $0.prefix { $0 == " " }.count }.min() ?? 0
                    value = block.map { String($0.dropFirst(min(indent, $0.prefix { $0 == " " }.count))) }.joined(separator: "\n")
                    if tail.hasPrefix("@contentType(") { value += " " + tail }
                }
            }
            out.append(Pair(key: key, value: value, enabled: enabled, line: n))
        }
        return out
    }

    func block(_ name: String) -> Block? { blocks.first { $0.name == name } }

    /// The enabled pairs of a dictionary block.
    func enabled(_ name: String) -> [Pair] { block(name)?.pairs.filter(\.enabled) ?? [] }

    /// A dictionary block's enabled value for `key`.
    func value(_ block: String, _ key: String) -> String? {
        self.block(block)?.pairs.first { $0.key == key && $0.enabled }?.value
    }
}

extension String {
    /// Without trailing spaces and tabs.
    func trimmingTrailingSpaces() -> String {
        var s = self[...]
        while let last = s.last, last == " " || last == "\t" { s = s.dropLast() }
        return String(s)
    }
}
