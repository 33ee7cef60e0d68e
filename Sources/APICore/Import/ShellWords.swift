/// Splits a command line as a POSIX shell would for a plain command: `'single'` quotes keep
/// everything, `"double"` quotes honour `\"`, `\\`, `\$` and `` \` ``, a backslash outside quotes
/// escapes the next character, and backslash-newline joins lines. `$'…'` (ANSI-C quoting, which
/// browsers' "Copy as cURL" uses) understands `\n`, `\t`, `\r`, `\\`, `\'`, `\"` and `\xHH`.
/// No expansion, globbing, pipes or redirections: those are errors a caller reports.
enum ShellWords {
    struct Unterminated: Error {
        var quote: Character
    }

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
            } else {
                word.append(c)
            }
        }
        throw Unterminated(quote: "\"")
    }

    private static func ansiQuoted(_ chars: inout ArraySlice<Character>, into word: inout String) throws(Unterminated) {
        while let c = chars.popFirst() {
            if c == "'" { return }
            guard c == "\\", let next = chars.popFirst() else { word.append(c); continue }
            switch next {
            case "n": word.append("\n")
            case "t": word.append("\t")
            case "r": word.append("\r")
            case "x":
                let hex = String(chars.prefix(2).prefix { $0.isHexDigit })
                chars.removeFirst(hex.count)
                if let v = UInt32(hex, radix: 16), let u = Unicode.Scalar(v) { word.unicodeScalars.append(u) }
            default: word.append(next)
            }
        }
        throw Unterminated(quote: "'")
    }
}
