import XCTest
@testable import APIDiagnostics
@testable import APITargets
@testable import APIImport

/// `Suggestions`: did-you-mean by edit distance.
final class SuggestionsTests: XCTestCase {

    func testDistanceIsLevenshtein() {
        // THEN insertions, deletions and substitutions each cost one
        XCTAssertEqual(Suggestions.distance("kitten", "sitting"), 3)
        XCTAssertEqual(Suggestions.distance("pth", "path"), 1)
        XCTAssertEqual(Suggestions.distance("path", "path"), 0)
        XCTAssertEqual(Suggestions.distance("", "abc"), 3)
        XCTAssertEqual(Suggestions.distance("abc", ""), 3)
        XCTAssertEqual(Suggestions.distance("qeury", "query"), 2, "a swap is two edits")
        XCTAssertEqual(Suggestions.distance("é", "e"), 1, "characters, not bytes")
    }

    func testClosestFindsTypos() {
        // GIVEN the target keys
        let keys = TargetFile.Keys.target
        // THEN a typo finds its key, and a word far from all finds nothing
        XCTAssertEqual(Suggestions.closest(to: "pth", in: keys), ["path"])
        XCTAssertEqual(Suggestions.closest(to: "metod", in: keys), ["method"])
        XCTAssertEqual(Suggestions.closest(to: "frobnicate", in: keys), [])
    }

    func testClosestIgnoresCaseAndKeepsTheCandidatesSpelling() {
        // THEN `baseurl` matches `baseURL` at distance 0
        XCTAssertEqual(Suggestions.closest(to: "BASEURL", in: ["baseURL", "headers"]), ["baseURL"])
    }

    func testClosestKeepsOnlyTheNearestSortedByNameAndLimits() {
        // GIVEN candidates at distance 1 (hat, cart, ca), 2 (act) and far away (elephant) from "cat"
        let candidates = ["hat", "act", "cart", "elephant", "ca"]
        // THEN only the nearest, by name, at most three by default
        XCTAssertEqual(Suggestions.closest(to: "cat", in: candidates), ["ca", "cart", "hat"])
        XCTAssertEqual(Suggestions.closest(to: "cat", in: candidates, limit: 2), ["ca", "cart"])
        XCTAssertEqual(Suggestions.closest(to: "cat", in: ["act", "elephant"]), ["act"])
    }

    func testThresholdGrowsWithTheWord() {
        // GIVEN words of 3, 6 and 9 characters (thresholds 2, 2 and 3)
        // THEN three edits are a typo only for the long word, and four never are
        XCTAssertEqual(Suggestions.closest(to: "abc", in: ["xyz"]), [], "distance 3 > 2")
        XCTAssertEqual(Suggestions.closest(to: "abcdef", in: ["abcxyz"]), [], "distance 3 > 2")
        XCTAssertEqual(Suggestions.closest(to: "abcdefghi", in: ["abcdefxyz"]), ["abcdefxyz"], "distance 3 <= 3")
        XCTAssertEqual(Suggestions.closest(to: "abcdefghi", in: ["abcdewxyz"]), [], "distance 4 > 3")
        XCTAssertEqual(Suggestions.closest(to: "github.usrProfle", in: ["github.userProfile"]), ["github.userProfile"])
    }

    func testHintPhrasing() {
        // THEN one, two and three suggestions read naturally, and none is nil
        XCTAssertEqual(Suggestions.hint(for: "pth", in: ["path", "method"]), "did you mean 'path'?")
        XCTAssertEqual(Suggestions.hint(for: "cat", in: ["bat", "hat"]), "did you mean 'bat' or 'hat'?")
        XCTAssertEqual(Suggestions.hint(for: "cat", in: ["bat", "hat", "mat", "rat"]), "did you mean 'bat', 'hat' or 'mat'?")
        XCTAssertNil(Suggestions.hint(for: "zzzzzz", in: ["path", "method"]))
        XCTAssertNil(Suggestions.hint(for: "path", in: [String]()))
    }
}
