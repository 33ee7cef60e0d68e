import Foundation
import XCTest

/// Every `apicli …` command shown in README.md, in the manual's pages (docs/**/*.md) and in the
/// shipped target files' comments that runs offline (`--stub`, `--dry-run`, `validate`, `list`,
/// `show`, `help`) runs from the package root and exits as documented: 0, or the N of an `# exit N`
/// comment on its line. Commands that write files or pipe are left out.
final class DocumentedCommandsTests: XCTestCase {

    struct Command {
        var source: String
        var words: [String]
        var exit: Int32
    }

    /// `apicli` lines: indented examples of a Markdown page (and list items), and `#   apicli` comment lines.
    static func commands(in text: String, source: String) -> [Command] {
        var found: [Command] = []
        for (n, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            var line = raw.drop(while: { $0 == " " || $0 == "#" || $0 == "-" })
            guard line.hasPrefix("apicli "), raw.hasPrefix("    ") || raw.hasPrefix("#") else { continue }
            line = line.dropFirst("apicli ".count)
            var comment = ""
            if let hash = line.range(of: " #") {
                comment = String(line[hash.upperBound...])
                line = line[..<hash.lowerBound]
            }
            guard let words = shellWords(String(line)) else { continue }
            let offline = words.contains("--stub") || words.contains("--dry-run")
                || ["validate", "list", "show", "help"].contains(words.first ?? "")
            let writes = words.contains { ["-o", "--output", "--to", ">", "|", "import", "--save"].contains($0) || $0.contains("$") }
            guard offline, !writes else { continue }
            var exit: Int32 = 0
            if let r = comment.range(of: "exit "), let code = Int32(comment[r.upperBound...].prefix(while: \.isNumber)) { exit = code }
            found.append(Command(source: "\(source):\(n + 1)", words: words, exit: exit))
        }
        return found
    }

    /// Words split on spaces, '…' quoted; nil for anything more (a command for a real shell).
    static func shellWords(_ line: String) -> [String]? {
        var words: [String] = [], current = "", quoted = false, any = false
        for c in line {
            if quoted {
                if c == "'" { quoted = false } else { current.append(c) }
            } else if c == "'" {
                quoted = true
                any = true
            } else if c == " " {
                if any || !current.isEmpty { words.append(current) }
                current = ""
                any = false
            } else if "\"\\`;&()<".contains(c) {
                return nil
            } else {
                current.append(c)
            }
        }
        if quoted { return nil }
        if any || !current.isEmpty { words.append(current) }
        return words
    }

    func testOfflineCommandsInTheReadmeTheDocsAndTargetFilesExitAsDocumented() throws {
        var all: [Command] = []
        // README.md, then every page of docs/ (DocsPages.pages())
        for page in try DocsPages.pages() {
            let text = try DocsPages.text(page)
            all += Self.commands(in: text, source: page)
        }
        let targets = CLI.root.appendingPathComponent("targets")
        for name in try FileManager.default.contentsOfDirectory(atPath: targets.path).sorted() where name.hasSuffix(".yaml") {
            let text = try String(contentsOf: targets.appendingPathComponent(name), encoding: .utf8)
            let comments = text.split(separator: "\n").filter { $0.hasPrefix("#") }.joined(separator: "\n")
            all += Self.commands(in: comments, source: "targets/\(name)")
        }
        // GIVEN at least the opening examples, from README.md and from the docs/ pages
        XCTAssertGreaterThanOrEqual(all.count, 8, "\(all.map(\.source))")
        XCTAssertTrue(all.contains { $0.source.hasPrefix("README.md:") }, "\(all.map(\.source))")
        XCTAssertTrue(all.contains { $0.source.hasPrefix("docs/") }, "\(all.map(\.source))")
        for c in all {
            // WHEN each runs from the package root with no APICLI_ variables
            let r = try CLI.run(c.words)
            // THEN it exits as documented
            XCTAssertEqual(r.code, c.exit, "\(c.source): apicli \(c.words.joined(separator: " "))\n\(r.stderr)")
        }
    }

    func testTheExtractorSkipsWhatItMustNotRun() {
        let text = """
                apicli call a.b --stub -o out.json   # writes a file
                apicli call a.b                       # live
                apicli show a.b   # exit 2: no such target
            #   apicli list 'x.*'
            """
        let found = Self.commands(in: text, source: "t")
        XCTAssertEqual(found.map(\.words), [["show", "a.b"], ["list", "x.*"]])
        XCTAssertEqual(found.map(\.exit), [2, 0])
    }
}
