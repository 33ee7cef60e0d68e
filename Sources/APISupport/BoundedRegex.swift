import CPCRE2
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The one regular-expression engine: PCRE2 (the system's libpcre2-8) with a bound on the work
/// of every match, so a pattern that backtracks without end (`^(a+)+$` over "aaaa…a!") stops
/// where the bound is hit, on the caller's thread, and nothing runs on after it: the answer is
/// then `.limitExceeded`, which each caller reports as such ("exceeded the regex work limit").
///
/// Two syntaxes:
/// - `.ecma` for JSON Schema's `pattern`, `patternProperties` and `format: regex` (ECMA-262 with
///   the `u` flag): `\d`, `\w`, `\b` ASCII, `\s` ECMA's white space and line terminators, `.` any
///   character but `\n`, `\r`, U+2028, U+2029, `$` the end only, `\uXXXX`, `\u{X…}`, `\xXX`, `[]`
///   and `[^]`. PCRE2's own extensions (`\A`, `\z`, possessive quantifiers…) are accepted.
/// - `.pcre` for `expect: body: matches:` and `capture: body:`: PCRE2 with Unicode (`\d`, `\w`,
///   `\s`, `\b` Unicode-aware, UCP).
///
/// A compiled pattern is cached (by text and syntax), so a pattern read once is compiled once.
package final class BoundedRegex: @unchecked Sendable {
    package enum Syntax: Sendable, Hashable { case ecma, pcre }

    package enum Outcome: Equatable, Sendable {
        case found, notFound, invalid
        /// The match took more than `matchLimit` steps (or `depthLimit` nested backtracking
        /// points, or `heapLimit` KiB of memory) and was stopped there.
        case limitExceeded
    }

    /// The work bound of one match: PCRE2's match limit (calls of its internal match function,
    /// about one per backtracking point), its depth limit and its heap limit (KiB). At these
    /// values a runaway pattern stops within about 0.3 s; no pattern that ends in linear work on
    /// texts up to megabytes comes near them.
    package static let matchLimit: UInt32 = 10_000_000
    package static let depthLimit: UInt32 = 1_000_000
    package static let heapLimitKiB: UInt32 = 64 * 1024
    /// What callers say when `.limitExceeded` comes back.
    package static let limitMessage = "exceeded the regex work limit"

    package let pattern: String
    package let syntax: Syntax
    private let code: OpaquePointer
    private let context: OpaquePointer

    private init(pattern: String, syntax: Syntax, code: OpaquePointer, context: OpaquePointer) {
        self.pattern = pattern
        self.syntax = syntax
        self.code = code
        self.context = context
    }

    deinit {
        pcre2_code_free_8(code)
        pcre2_match_context_free_8(context)
    }

    /// Why a pattern does not compile, with the offset PCRE2 names (in the text it compiled).
    package struct CompileError: Error, Sendable, Equatable {
        package let message: String
    }

    private struct Key: Hashable { let pattern: String, syntax: Syntax }
    private static let cache = Locked<[Key: BoundedRegex]>([:])
    private static let cacheSize = 4096

    /// The compiled pattern, from the cache when it was compiled before.
    package static func compile(_ pattern: String, syntax: Syntax = .pcre) throws(CompileError) -> BoundedRegex {
        let key = Key(pattern: pattern, syntax: syntax)
        if let known = cache.withLock({ $0[key] }) { return known }
        let compiled = try make(pattern, syntax: syntax)
        cache.withLock { table in
            if table.count >= cacheSize { table.removeAll(keepingCapacity: true) }
            table[key] = compiled
        }
        return compiled
    }

    /// Whether `pattern` compiles in `syntax`.
    package static func isValid(_ pattern: String, syntax: Syntax = .pcre) -> Bool {
        (try? compile(pattern, syntax: syntax)) != nil
    }

    /// `pattern` searched for in `text` (anywhere, as JSON Schema and `matches:` ask).
    package static func firstMatch(_ pattern: String, in text: String, syntax: Syntax = .pcre) -> Outcome {
        guard let regex = try? compile(pattern, syntax: syntax) else { return .invalid }
        return regex.firstMatch(in: text)
    }

    package func firstMatch(in text: String) -> Outcome {
        switch run(text, wantGroups: false) {
        case .success(let groups): return groups == nil ? .notFound : .found
        case .failure: return .limitExceeded
        }
    }

    package struct LimitExceeded: Error, Sendable {}

    /// The first match's groups (index 0 the whole match; nil for a group that took no part),
    /// nil when there is no match.
    package func groups(in text: String) -> Result<[Substring?]?, LimitExceeded> {
        run(text, wantGroups: true)
    }

    private func run(_ text: String, wantGroups: Bool) -> Result<[Substring?]?, LimitExceeded> {
        guard let data = pcre2_match_data_create_from_pattern_8(code, nil) else { return .failure(LimitExceeded()) }
        defer { pcre2_match_data_free_8(data) }
        var copy = text
        let rc: Int32 = copy.withUTF8 { bytes in
            // Swift strings are valid UTF-8: PCRE2 need not check again.
            if let base = bytes.baseAddress {
                return pcre2_match_8(code, base, bytes.count, 0, UInt32(PCRE2_NO_UTF_CHECK), data, context)
            }
            var nothing: UInt8 = 0
            return pcre2_match_8(code, &nothing, 0, 0, UInt32(PCRE2_NO_UTF_CHECK), data, context)
        }
        if rc == PCRE2_ERROR_NOMATCH || rc == PCRE2_ERROR_PARTIAL { return .success(nil) }
        guard rc >= 0 else { return .failure(LimitExceeded()) }  // match, depth or heap limit (or no memory)
        guard wantGroups else { return .success([]) }
        let count = Int(pcre2_get_ovector_count_8(data))
        guard let vector = pcre2_get_ovector_pointer_8(data) else { return .success([]) }
        let utf8 = text.utf8
        var groups: [Substring?] = []
        for i in 0..<count {
            let (start, end) = (vector[2 * i], vector[2 * i + 1])
            if start < 0 || end < start  // PCRE2_UNSET (~0) reads as -1 here
                || end > utf8.count { groups.append(nil); continue }
            let from = utf8.index(utf8.startIndex, offsetBy: Int(start))
            let to = utf8.index(from, offsetBy: Int(end - start))
            groups.append(text[from..<to])
        }
        return .success(groups)
    }

    private static func make(_ pattern: String, syntax: Syntax) throws(CompileError) -> BoundedRegex {
        var options = UInt32(PCRE2_UTF)
        var extra: UInt32 = 0
        var source = pattern
        switch syntax {
        case .pcre:
            options |= UInt32(PCRE2_UCP)
        case .ecma:
            options |= UInt32(PCRE2_ALT_BSUX) | UInt32(PCRE2_DOLLAR_ENDONLY) | UInt32(PCRE2_ALLOW_EMPTY_CLASS)
            extra |= UInt32(PCRE2_EXTRA_ALT_BSUX)
            source = ECMAPattern.translate(pattern)
        }
        guard let compileContext = pcre2_compile_context_create_8(nil) else { throw CompileError(message: "out of memory") }
        defer { pcre2_compile_context_free_8(compileContext) }
        pcre2_set_compile_extra_options_8(compileContext, extra)
        var errorCode: Int32 = 0
        var errorOffset = 0
        let code: OpaquePointer? = source.withCString { c in
            c.withMemoryRebound(to: UInt8.self, capacity: source.utf8.count + 1) { bytes in
                pcre2_compile_8(bytes, source.utf8.count, options, &errorCode, &errorOffset, compileContext)
            }
        }
        guard let code else {
            var buffer = [UInt8](repeating: 0, count: 256)
            let n = pcre2_get_error_message_8(errorCode, &buffer, buffer.count)
            let text = n > 0 ? String(decoding: buffer.prefix(Int(n)), as: UTF8.self) : "error \(errorCode)"
            throw CompileError(message: "\(text) (at offset \(errorOffset))")
        }
        guard let context = pcre2_match_context_create_8(nil) else {
            pcre2_code_free_8(code)
            throw CompileError(message: "out of memory")
        }
        pcre2_set_match_limit_8(context, matchLimit)
        pcre2_set_depth_limit_8(context, depthLimit)
        pcre2_set_heap_limit_8(context, heapLimitKiB)
        return BoundedRegex(pattern: pattern, syntax: syntax, code: code, context: context)
    }
}

/// ECMA-262 spellings whose meaning differs in PCRE2, rewritten: `\s`/`\S` (ECMA's set holds
/// U+00A0, U+FEFF, the Unicode spaces and line terminators; PCRE2's ASCII `\s` without UCP),
/// `.` (not a line terminator), and `[` inside a class (a literal in ECMA, POSIX `[:…:]` in PCRE2).
enum ECMAPattern {
    /// ECMA's white space and line terminators, beyond PCRE2's ASCII `\s` (\t \n \v \f \r space).
    static let extraSpaces = "\u{A0}\u{1680}\u{2000}-\u{200A}\u{2028}\u{2029}\u{202F}\u{205F}\u{3000}\u{FEFF}"
    /// Everything but ECMA's `\s`, as class ranges (for `\S` inside a class).
    static let notSpace = "\\000-\\010\\016-\\037!-\u{9F}\u{A1}-\u{167F}\u{1681}-\u{1FFF}\u{200B}-\u{2027}"
        + "\u{202A}-\u{202E}\u{2030}-\u{205E}\u{2060}-\u{2FFF}\u{3001}-\u{FEFE}\u{FF00}-\u{10FFFF}"

    /// ECMA's General_Category long names (and `gc=`, `sc=`, `scx=` forms) as PCRE2 10.42 reads them.
    static let categories: [String: String] = [
        "letter": "L", "casedletter": "L&", "uppercaseletter": "Lu", "lowercaseletter": "Ll", "titlecaseletter": "Lt",
        "modifierletter": "Lm", "otherletter": "Lo", "mark": "M", "combiningmark": "M", "nonspacingmark": "Mn",
        "spacingmark": "Mc", "enclosingmark": "Me", "number": "N", "decimalnumber": "Nd", "digit": "Nd",
        "letternumber": "Nl", "othernumber": "No", "punctuation": "P", "punct": "P", "connectorpunctuation": "Pc",
        "dashpunctuation": "Pd", "openpunctuation": "Ps", "closepunctuation": "Pe", "initialpunctuation": "Pi",
        "finalpunctuation": "Pf", "otherpunctuation": "Po", "symbol": "S", "mathsymbol": "Sm", "currencysymbol": "Sc",
        "modifiersymbol": "Sk", "othersymbol": "So", "separator": "Z", "spaceseparator": "Zs", "lineseparator": "Zl",
        "paragraphseparator": "Zp", "other": "C", "control": "Cc", "cntrl": "Cc", "format": "Cf", "surrogate": "Cs",
        "privateuse": "Co", "unassigned": "Cn",
    ]

    static func property(_ name: String) -> String {
        let parts = name.split(separator: "=", maxSplits: 1).map(String.init)
        func loose(_ s: String) -> String { s.lowercased().filter { $0 != "_" && $0 != "-" && $0 != " " } }
        if parts.count == 2 {
            switch loose(parts[0]) {
            case "generalcategory", "gc": return categories[loose(parts[1])] ?? parts[1]
            case "script", "sc": return parts[1]
            case "scriptextensions", "scx": return "scx:" + parts[1]
            default: return name
            }
        }
        return categories[loose(name)] ?? name
    }

    static func translate(_ pattern: String) -> String {
        var out = ""
        var inClass = false
        var iterator = pattern.unicodeScalars.makeIterator()
        while let c = iterator.next() {
            switch c {
            case "\\":
                guard let next = iterator.next() else { out += "\\"; continue }
                switch (next, inClass) {
                case ("s", false): out += "[\\s" + extraSpaces + "]"
                case ("S", false): out += "[^\\s" + extraSpaces + "]"
                case ("s", true): out += "\\s" + extraSpaces
                case ("S", true): out += notSpace
                case ("p", _), ("P", _):
                    out.unicodeScalars.append(c); out.unicodeScalars.append(next)
                    guard let open = iterator.next() else { continue }
                    guard open == "{" else { out.unicodeScalars.append(open); continue }
                    var name = ""
                    while let n = iterator.next(), n != "}" { name.unicodeScalars.append(n) }
                    out += "{" + property(name) + "}"
                default: out.unicodeScalars.append(c); out.unicodeScalars.append(next)
                }
            case "[" where inClass: out += "\\["
            case "[":
                inClass = true
                out += "["
                // `[]` and `[^]` stay empty classes (PCRE2_ALLOW_EMPTY_CLASS); no `]` is literal here.
            case "]" where inClass: inClass = false; out += "]"
            case "." where !inClass: out += "[^\\n\\r\u{2028}\u{2029}]"
            default: out.unicodeScalars.append(c)
            }
        }
        return out
    }
}

/// Work on a POSIX thread of its own, detached: never on a shared dispatch queue.
package enum Detached {
    private final class Work {
        let body: @Sendable () -> Void
        init(_ body: @escaping @Sendable () -> Void) { self.body = body }
    }

    package static func run(_ body: @escaping @Sendable () -> Void) {
        let context = Unmanaged.passRetained(Work(body)).toOpaque()
        var thread = pthread_t()
        let started = pthread_create(&thread, nil, { raw in
            let work = Unmanaged<Work>.fromOpaque(raw!).takeRetainedValue()
            work.body()
            return nil
        }, context)
        if started == 0 {
            pthread_detach(thread)
        } else {
            Unmanaged<Work>.fromOpaque(context).takeRetainedValue().body()  // no thread to be had: run it here
        }
    }
}
