import APITransport
/// Splits a command line as a POSIX shell would for a plain command: `'single'` quotes keep
/// everything, `"double"` quotes honour `\"`, `\\`, `\$` and `` \` ``, a backslash outside quotes
/// escapes the next character, and backslash-newline joins lines. `$'…'` (ANSI-C quoting, which
/// browsers' "Copy as cURL" uses) is read as bash reads it (see `ansiQuoted`).
/// A `#` that starts a word starts a comment to the end of the line (so a shebang line and a
/// `# comment` before the command are skipped, and an apostrophe in them is not a quote).
/// `$NAME` and `${NAME}` outside single quotes are the shell's variables: each becomes
/// `ShellWords.variable(NAME)`, a marker the importer turns into a `${NAME}` reference.
/// No other expansion, globbing, pipes or redirections: those are errors a caller reports.
enum ShellWords {
    /// Marks a shell variable inside a word: plain ASCII that URLs, JSON and headers carry as is.
    static let variableStart = "__apicli_shell_var__"
    static let variableEnd = "__end_shell_var__"

    static func variable(_ name: String) -> String { variableStart + name + variableEnd }

    /// The variables marked in `text`, and the text with each marker replaced by `replace(name)`.
    static func replacingVariables(_ text: String, _ replace: (String) -> String) -> String {
        guard text.contains(variableStart) else { return text }
        var out = ""
        var rest = text[...]
        while let start = rest.firstRange(of: variableStart), let end = rest[start.upperBound...].firstRange(of: variableEnd) {
            out += rest[..<start.lowerBound]
            out += replace(String(rest[start.upperBound..<end.lowerBound]))
            rest = rest[end.upperBound...]
        }
        return out + rest
    }

    /// `$NAME` or `${NAME}` after the `$`: the variable's name, consumed; nil (nothing consumed) otherwise.
    private static func variableName(_ chars: inout ArraySlice<Character>) -> String? {
        func isStart(_ c: Character) -> Bool { c == "_" || (c.isASCII && c.isLetter) }
        func isName(_ c: Character) -> Bool { isStart(c) || (c.isASCII && c.isNumber) }
        if chars.first == "{" {
            let inner = chars.dropFirst()
            guard let close = inner.firstIndex(of: "}"), let first = inner.first, isStart(first),
                  inner[..<close].allSatisfy(isName) else { return nil }
            let name = String(inner[..<close])
            chars = chars[(close + 1)...]
            return name
        }
        guard let first = chars.first, isStart(first) else { return nil }
        let name = String(chars.prefix(while: isName))
        chars.removeFirst(name.count)
        return name
    }

    /// Why a command line cannot be split: what to tell the user.
    struct Unterminated: Error {
        var message: String

        init(quote: Character) { message = "the curl command has an unterminated \(quote) quote" }
        init(message: String) { self.message = message }
    }

    /// `$(…)` and `` `…` `` run a command when the shell reads the line: an import cannot.
    static let substitution = Unterminated(message: "the curl command holds a command substitution ($(…) or `…`), which the shell runs first; an import cannot")

    static func split(_ text: String) throws(Unterminated) -> [String] {
        var words: [String] = []
        var word = ""
        var inWord = false
        var chars = Array(text)[...]
        while let c = chars.popFirst() {
            switch c {
            case " ", "\t", "\n", "\r":
                if inWord { words.append(word); word = ""; inWord = false }
            case "\\":
                inWord = true
                guard let next = chars.popFirst() else { break }
                if next == "\n" { if word.isEmpty { inWord = false } } else if next != "\r" { word.append(next) }
            case "'":
                inWord = true
                guard let end = chars.firstIndex(of: "'") else { throw Unterminated(quote: "'") }
                word += String(chars[..<end])
                chars = chars[(end + 1)...]
            case "\"":
                inWord = true
                try doubleQuoted(&chars, into: &word)
            case "$" where chars.first == "'":
                inWord = true
                chars.removeFirst()
                try ansiQuoted(&chars, into: &word)
            case "$" where chars.first == "(", "`":
                throw substitution
            case "$":
                inWord = true
                word += variableName(&chars).map(variable) ?? "$"
            case "#" where !inWord:
                while let next = chars.first, next != "\n" { chars.removeFirst() }
            default:
                inWord = true
                word.append(c)
            }
        }
        if inWord { words.append(word) }
        return words
    }

    private static func doubleQuoted(_ chars: inout ArraySlice<Character>, into word: inout String) throws(Unterminated) {
        while let c = chars.popFirst() {
            if c == "\"" { return }
            if c == "\\", let next = chars.first, "\"\\$`\n".contains(next) {
                chars.removeFirst()
                if next != "\n" { word.append(next) }
            } else if c == "`" || (c == "$" && chars.first == "(") {
                throw substitution
            } else if c == "$", let name = variableName(&chars) {
                word += variable(name)
            } else {
                word.append(c)
            }
        }
        throw Unterminated(quote: "\"")
    }

    /// bash's `$'…'`: the escapes of C and bash (`\a \b \e \E \f \n \r \t \v \\ \' \" \?`), `\NNN`
    /// (one to three octal digits) and `\xHH` (one or two hex digits) as bytes, `\uHHHH` and
    /// `\UHHHHHHHH` as the character's UTF-8, `\cX` as control-X. An unknown escape keeps its
    /// backslash, as bash does. Bytes that are not UTF-8 become U+FFFD.
    private static func ansiQuoted(_ chars: inout ArraySlice<Character>, into word: inout String) throws(Unterminated) {
        var bytes: [UInt8] = []
        func scalar(_ v: UInt32) { bytes += Array(String(Unicode.Scalar(v).map(Character.init) ?? "\u{FFFD}").utf8) }
        func digits(_ count: Int, radix: Int) -> UInt32? {
            let run = chars.prefix(count).prefix { $0.isASCII && $0.hexDigitValue.map { $0 < radix } == true }
            guard !run.isEmpty else { return nil }
            chars.removeFirst(run.count)
            return UInt32(String(run), radix: radix)
        }
        while let c = chars.popFirst() {
            if c == "'" {
                word += String(decoding: bytes, as: UTF8.self)
                return
            }
            guard c == "\\", let next = chars.popFirst() else { bytes += Array(String(c).utf8); continue }
            switch next {
            case "a": bytes.append(0x07)
            case "b": bytes.append(0x08)
            case "e", "E": bytes.append(0x1B)
            case "f": bytes.append(0x0C)
            case "n": bytes.append(0x0A)
            case "r": bytes.append(0x0D)
            case "t": bytes.append(0x09)
            case "v": bytes.append(0x0B)
            case "\\", "'", "\"", "?": bytes += Array(String(next).utf8)
            case "0"..."7":
                chars.insert(next, at: chars.startIndex)
                bytes.append(UInt8(truncatingIfNeeded: digits(3, radix: 8) ?? 0))
            case "x":
                if let v = digits(2, radix: 16) { bytes.append(UInt8(v)) } else { bytes += Array("\\x".utf8) }
            case "u", "U":
                if let v = digits(next == "u" ? 4 : 8, radix: 16) { scalar(v) } else { bytes += Array("\\\(next)".utf8) }
            case "c":
                guard let x = chars.popFirst() else { bytes += Array("\\c".utf8); break }
                let ascii = x.asciiValue ?? 0x3F
                bytes.append(ascii == 0x3F ? 0x7F : ascii & 0x1F)
            default: bytes += Array("\\\(next)".utf8)
            }
        }
        throw Unterminated(quote: "'")
    }
}
