import Foundation

/// The Markdown pages of the manual, read the way GitHub renders them: which lines are prose (not
/// code), the headings' anchors and the relative links. Shared by `DocumentedCommandsTests` (which
/// runs the examples of every page) and `DocsLinksTests` (which checks the links).
enum DocsPages {

    /// A link as written: the page's line (1-based) and the target between `](` and `)`.
    struct Link: Equatable {
        var line: Int
        var target: String
    }

    /// README.md, then every `*.md` under docs/ (sorted), as paths relative to the package root.
    static func pages() throws -> [String] {
        let docs = CLI.root.appendingPathComponent("docs")
        var found: [String] = []
        if let walker = FileManager.default.enumerator(atPath: docs.path) {
            while let path = walker.nextObject() as? String {
                if path.hasSuffix(".md") { found.append("docs/" + path) }
            }
        }
        return ["README.md"] + found.sorted()
    }

    /// The pages whose links must all resolve: the manual, CHANGELOG.md and CONTRIBUTING.md.
    static func linkingPages() throws -> [String] {
        let extra = ["CHANGELOG.md", "CONTRIBUTING.md"].filter {
            FileManager.default.fileExists(atPath: CLI.root.appendingPathComponent($0).path)
        }
        return try pages() + extra
    }

    static func text(_ page: String) throws -> String {
        try String(contentsOf: CLI.root.appendingPathComponent(page), encoding: .utf8)
    }

    /// The lines outside code, numbered from 1: fenced blocks (``` or ~~~) and indented code (a line
    /// starting with four spaces or a tab) are left out.
    static func proseLines(of text: String) -> [(number: Int, line: Substring)] {
        var prose: [(number: Int, line: Substring)] = []
        var fenced = false
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let trimmed = line.drop(while: { $0 == " " })
            if trimmed.hasPrefix("```") || trimmed.hasPrefix("~~~") {
                fenced.toggle()
                continue
            }
            if fenced || line.hasPrefix("    ") || line.hasPrefix("\t") { continue }
            prose.append((index + 1, line))
        }
        return prose
    }

    /// The line without its code spans (the text between backticks), where `](` is not a link.
    static func withoutCodeSpans(_ line: Substring) -> String {
        var plain = ""
        var inCode = false
        for c in line {
            if c == "`" {
                inCode.toggle()
            } else if !inCode {
                plain.append(c)
            }
        }
        return plain
    }

    /// Every inline link `[text](target)` outside code.
    static func links(in text: String) -> [Link] {
        var found: [Link] = []
        for (number, line) in proseLines(of: text) {
            var rest = Substring(withoutCodeSpans(line))
            while let open = rest.range(of: "](") {
                let after = rest[open.upperBound...]
                guard let close = after.firstIndex(of: ")") else { break }
                let target = String(after[..<close])
                if !target.isEmpty, !target.contains(" ") { found.append(Link(line: number, target: target)) }
                rest = after[close...]
            }
        }
        return found
    }

    /// A target with a scheme (`https:`, `mailto:`) leaves the repository: not checked.
    static func isExternal(_ target: String) -> Bool {
        guard let colon = target.firstIndex(of: ":") else { return false }
        let scheme = target[..<colon]
        return !scheme.isEmpty && scheme.allSatisfy { $0.isLetter || $0.isNumber || "+.-".contains($0) }
    }

    /// The file a relative link names, relative to the package root, and its `#fragment` (nil
    /// without one). A link of only `#fragment` names `page` itself.
    static func resolve(_ target: String, from page: String) -> (file: String, fragment: String?) {
        let parts = target.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
        let path = String(parts[0])
        let fragment = parts.count > 1 ? String(parts[1]) : nil
        if path.isEmpty { return (page, fragment) }
        var components = Array(page.split(separator: "/").map(String.init).dropLast())
        for component in path.split(separator: "/") {
            switch component {
            case ".": continue
            case "..": _ = components.popLast()
            default: components.append(String(component))
            }
        }
        return (components.joined(separator: "/"), fragment)
    }

    /// GitHub's anchor of a heading's text: lower case, spaces as `-`, every character that is not a
    /// letter, a digit, a mark, `_` or `-` dropped (so `` `expect: { schema: }` `` loses its
    /// backticks, colons and braces).
    static func anchor(_ heading: String) -> String {
        var slug = ""
        for scalar in heading.trimmingCharacters(in: .whitespaces).lowercased().unicodeScalars {
            switch scalar.properties.generalCategory {
            case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
                 .nonspacingMark, .spacingMark, .enclosingMark, .decimalNumber, .letterNumber, .otherNumber,
                 .connectorPunctuation:
                slug.unicodeScalars.append(scalar)
            case .dashPunctuation where scalar == "-":
                slug.unicodeScalars.append(scalar)
            case .spaceSeparator where scalar == " ":
                slug.append("-")
            default:
                continue
            }
        }
        return slug
    }

    /// The anchors of a page's headings (`#` to `######` outside code), a repeated one numbered as
    /// GitHub numbers it (`name`, `name-1`, `name-2`).
    static func anchors(in text: String) -> Set<String> {
        var anchors: Set<String> = []
        var seen: [String: Int] = [:]
        for (_, line) in proseLines(of: text) {
            let hashes = line.prefix(while: { $0 == "#" }).count
            guard (1...6).contains(hashes), line.dropFirst(hashes).first == " " else { continue }
            var heading = line.dropFirst(hashes)
            while heading.last == "#" || heading.last == " " { heading = heading.dropLast() }
            let slug = anchor(String(heading))
            let count = seen[slug, default: 0]
            seen[slug] = count + 1
            anchors.insert(count == 0 ? slug : "\(slug)-\(count)")
        }
        return anchors
    }
}
