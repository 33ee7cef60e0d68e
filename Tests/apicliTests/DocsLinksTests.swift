import Foundation
import XCTest

/// The manual stays whole (issue 37): README.md is a short front page, every page of docs/ is linked
/// from README.md or from another page, and no relative link of README.md, CHANGELOG.md,
/// CONTRIBUTING.md or docs/ points to a missing file or to a missing `#anchor` (GitHub's anchors).
final class DocsLinksTests: XCTestCase {

    func testTheReadmeIsAtMost200Lines() throws {
        // GIVEN README.md
        let readme = try DocsPages.text("README.md")
        // WHEN its lines are counted (a final newline ends the last line, it does not start another)
        let lines = readme.split(separator: "\n", omittingEmptySubsequences: false).count - (readme.hasSuffix("\n") ? 1 : 0)
        // THEN there are at most 200: the detail lives in docs/
        XCTAssertLessThanOrEqual(lines, 200, "README.md has \(lines) lines (at most 200): move the detail into a docs/ page and link to it")
    }

    func testEveryDocsPageIsLinkedFromTheReadmeOrAnotherPage() throws {
        // GIVEN README.md and every docs/ page
        let pages = try DocsPages.pages()
        XCTAssertTrue(pages.contains("docs/exit-codes.md"), "\(pages)")
        // WHEN the pages they link to are collected (a page's links to itself do not count)
        var linked: Set<String> = []
        for page in pages {
            let text = try DocsPages.text(page)
            for link in DocsPages.links(in: text) where !DocsPages.isExternal(link.target) {
                let file = DocsPages.resolve(link.target, from: page).file
                if file != page { linked.insert(file) }
            }
        }
        // THEN each docs/ page is among them
        for page in pages where page.hasPrefix("docs/") {
            XCTAssertTrue(linked.contains(page), "\(page) is linked from neither README.md nor another docs/ page")
        }
    }

    func testEveryRelativeLinkReachesAFileAndItsAnchor() throws {
        // GIVEN every link of README.md, CHANGELOG.md, CONTRIBUTING.md and docs/
        var checked = 0
        for page in try DocsPages.linkingPages() {
            let text = try DocsPages.text(page)
            for link in DocsPages.links(in: text) where !DocsPages.isExternal(link.target) {
                checked += 1
                // WHEN it is resolved against the page's folder
                let (file, fragment) = DocsPages.resolve(link.target, from: page)
                let where_ = "\(page):\(link.line): link (\(link.target))"
                // THEN the file exists
                let url = CLI.root.appendingPathComponent(file)
                guard FileManager.default.fileExists(atPath: url.path) else {
                    XCTFail("\(where_): there is no file \(file)")
                    continue
                }
                // AND its anchor is a heading of that page
                guard let fragment, !fragment.isEmpty else { continue }
                guard file.hasSuffix(".md") else {
                    XCTFail("\(where_): #\(fragment) points into \(file), which is not a Markdown page")
                    continue
                }
                let target = try DocsPages.text(file)
                let anchors = DocsPages.anchors(in: target)
                XCTAssertTrue(anchors.contains(fragment),
                              "\(where_): \(file) has no heading whose anchor is #\(fragment); its anchors: \(anchors.sorted().joined(separator: ", "))")
            }
        }
        XCTAssertGreaterThanOrEqual(checked, 20, "too few links found: the link reader is broken")
    }

    func testAnchorsAreGitHubs() {
        XCTAssertEqual(DocsPages.anchor("Contracts: `expect: { schema: }`"), "contracts-expect--schema-")
        XCTAssertEqual(DocsPages.anchor("Auth (Moya's AccessTokenPlugin and CredentialsPlugin)"),
                       "auth-moyas-accesstokenplugin-and-credentialsplugin")
        XCTAssertEqual(DocsPages.anchor("Drift: `apicli check --drift`"), "drift-apicli-check---drift")
        XCTAssertEqual(DocsPages.anchor("One-off calls: `apicli call URL`"), "one-off-calls-apicli-call-url")
        XCTAssertEqual(DocsPages.anchor("Environments and `.env` files"), "environments-and-env-files")
        XCTAssertEqual(DocsPages.anchor("snake_case and Ünïcode 2"), "snake_case-and-ünïcode-2")
        let text = """
            # Title
            ## Same
            ## Same
            ```sh
            # not a heading
            ```
                # indented code, not a heading
            #NoSpace
            """
        XCTAssertEqual(DocsPages.anchors(in: text), ["title", "same", "same-1"])
    }

    func testTheLinkReaderSkipsCodeAndReadsRelativeLinks() {
        let text = """
            See [a](a.md), [b](../b.md#part) and [c](#here); [web](https://example.com).
            Not `[code](x.md)`.
                [indented](code.md)
            ```
            [fenced](code.md)
            ```
            """
        let links = DocsPages.links(in: text)
        XCTAssertEqual(links.map(\.target), ["a.md", "../b.md#part", "#here", "https://example.com"])
        XCTAssertEqual(links.map(\.line), [1, 1, 1, 1])
        XCTAssertEqual(links.map { DocsPages.isExternal($0.target) }, [false, false, false, true])
        XCTAssertEqual(DocsPages.resolve("../b.md#part", from: "docs/dev/x.md").file, "docs/b.md")
        XCTAssertEqual(DocsPages.resolve("../b.md#part", from: "docs/dev/x.md").fragment, "part")
        XCTAssertEqual(DocsPages.resolve("#here", from: "docs/x.md").file, "docs/x.md")
        XCTAssertEqual(DocsPages.resolve("docs/x.md", from: "README.md").file, "docs/x.md")
        XCTAssertNil(DocsPages.resolve("CONTRIBUTING.md", from: "README.md").fragment)
    }
}
