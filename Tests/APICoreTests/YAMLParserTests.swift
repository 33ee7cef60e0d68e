import Foundation
import XCTest
@testable import APIYAML

/// The YAML layer: libyaml events → `Node`s with 1-based marks, aliases and merges resolved,
/// hostile input bounded.
final class YAMLParserTests: XCTestCase {

    // MARK: Scalars and structure

    func testPlainScalarsArePlainAndQuotedOrBlockScalarsAreNot() throws {
        // GIVEN scalars in every style
        let yaml = """
            plain: hello
            single: 'hello'
            double: "hello"
            literal: |
              two
              lines
            folded: >
              one
              line
            """
        // WHEN parsed (with the final line break that ends the folded scalar)
        let root = try XCTUnwrap(parseYAML(yaml + "\n"))
        // THEN only the plain one is plain, and block scalars keep their text
        XCTAssertEqual(root.keys, ["plain", "single", "double", "literal", "folded"])
        XCTAssertEqual(root["plain"]?.isPlainScalar, true)
        XCTAssertEqual(root["single"]?.isPlainScalar, false)
        XCTAssertEqual(root["double"]?.isPlainScalar, false)
        XCTAssertEqual(root["literal"]?.isPlainScalar, false)
        XCTAssertEqual(root["folded"]?.isPlainScalar, false)
        XCTAssertEqual(root["plain"]?.scalarText, "hello")
        XCTAssertEqual(root["single"]?.scalarText, "hello")
        XCTAssertEqual(root["double"]?.scalarText, "hello")
        XCTAssertEqual(root["literal"]?.scalarText, "two\nlines\n")
        XCTAssertEqual(root["folded"]?.scalarText, "one line\n")
    }

    func testNullsFollowTheCoreSchemaAndQuotedNullIsText() throws {
        // GIVEN the spellings of null, and a quoted "null"
        let root = try XCTUnwrap(parseYAML("a:\nb: ~\nc: null\nd: NULL\ne: \"null\"\nf: nil\ng: !!str\n"))
        // THEN the plain ones are null, the quoted one and `nil` are not; !!str wins over emptiness
        XCTAssertEqual(root.keys.map { root[$0]?.isNull }, [true, true, true, true, false, false, false])
        XCTAssertEqual(root["a"]?.kindName, "null")
        XCTAssertEqual(root["e"]?.kindName, "a scalar")
    }

    func testExplicitTagsAreKeptForScalarsAndCollections() throws {
        // GIVEN tags on a scalar, a sequence and a mapping (libyaml zero-fills END events, so the
        // collection tags must come from START events)
        let root = try XCTUnwrap(parseYAML("s: !!str 123\nq: !!seq [1]\nm: !!map { a: 1 }\nn: 5\n"))
        // THEN each keeps its resolved tag, and untagged nodes have none
        XCTAssertEqual(root["s"]?.tag, "tag:yaml.org,2002:str")
        XCTAssertEqual(root["s"]?.isPlainScalar, true)
        XCTAssertEqual(root["q"]?.tag, "tag:yaml.org,2002:seq")
        XCTAssertEqual(root["m"]?.tag, "tag:yaml.org,2002:map")
        XCTAssertNil(root["n"]?.tag)
    }

    func testNestedMappingsAndSequences() throws {
        // GIVEN block and flow collections inside each other
        let yaml = """
            service: github
            targets:
              zen:
                path: /zen
                tags: [a, [b, c], { d: e }]
              list:
                - one
                - two: 2
            """
        // WHEN parsed
        let root = try XCTUnwrap(parseYAML(yaml))
        // THEN the tree has the same shape, in written order
        XCTAssertEqual(root.keys, ["service", "targets"])
        let targets = try XCTUnwrap(root["targets"])
        XCTAssertEqual(targets.keys, ["zen", "list"])
        let tags = try XCTUnwrap(targets["zen"]?["tags"]?.items)
        XCTAssertEqual(tags.count, 3)
        XCTAssertEqual(tags[0].scalarText, "a")
        XCTAssertEqual(tags[1].items?.compactMap(\.scalarText), ["b", "c"])
        XCTAssertEqual(tags[2]["d"]?.scalarText, "e")
        let list = try XCTUnwrap(targets["list"]?.items)
        XCTAssertEqual(list.count, 2)
        XCTAssertEqual(list[0].scalarText, "one")
        XCTAssertEqual(list[1]["two"]?.scalarText, "2")
        XCTAssertEqual(targets.kindName, "a mapping")
        XCTAssertEqual(targets["zen"]?["tags"]?.kindName, "a list")
    }

    // MARK: Marks

    func testMarksAreOneBasedLineAndColumnOfKeysAndValues() throws {
        // GIVEN a small target file
        let yaml = """
            service: github
            targets:
              zen:
                path: /zen
                list: [a, b]
            """
        // WHEN parsed
        let root = try XCTUnwrap(parseYAML(yaml))
        let pairs = try XCTUnwrap(root.pairs)
        // THEN every key and value carries where it starts, counting from 1
        XCTAssertEqual(root.mark, at(1, 1))
        XCTAssertEqual(pairs[0].key.mark, at(1, 1))
        XCTAssertEqual(pairs[0].value.mark, at(1, 10))
        XCTAssertEqual(pairs[1].key.mark, at(2, 1))
        let zen = try XCTUnwrap(pairs[1].value.pairs?.first)
        XCTAssertEqual(zen.key.mark, at(3, 3))
        XCTAssertEqual(zen.value.mark, at(4, 5))
        let path = try XCTUnwrap(zen.value.pairs?.first)
        XCTAssertEqual(path.key.mark, at(4, 5))
        XCTAssertEqual(path.value.mark, at(4, 11))
        let list = try XCTUnwrap(zen.value["list"])
        XCTAssertEqual(list.mark, at(5, 11))
        XCTAssertEqual(list.items?.map(\.mark), [at(5, 12), at(5, 15)])
    }

    func testColumnsCountCharactersNotBytes() throws {
        // GIVEN a key made of two-byte characters
        let root = try XCTUnwrap(parseYAML("\"ünïcödé\": v\n"))
        // THEN the value's column counts 11 characters before it, not 15 bytes
        XCTAssertEqual(root.pairs?.first?.value.mark, at(1, 12))
    }

    func testUTF16WithByteOrderMarkIsRead() throws {
        // GIVEN "a: b" in UTF-16LE with a BOM
        let bytes: [UInt8] = [0xFF, 0xFE] + Array("a: b\n".utf16).flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
        // WHEN parsed
        let root = try XCTUnwrap(YAMLParser.parse(bytes))
        // THEN it is the same mapping as in UTF-8
        XCTAssertEqual(root["a"]?.scalarText, "b")
    }

    // MARK: Anchors, aliases, merges

    func testAliasesCopyTheAnchoredNodeAndTakeTheAliasMark() throws {
        // GIVEN anchored mappings, scalars and sequences, and aliases to them
        let yaml = """
            base: &b { x: 1 }
            copy: *b
            name: &n moya
            again: *n
            list: &l [1, 2]
            more: *l
            """
        // WHEN parsed
        let root = try XCTUnwrap(parseYAML(yaml))
        // THEN each alias is the anchored node, placed where the alias stands
        XCTAssertEqual(root["base"]?.mark, at(1, 7))
        XCTAssertEqual(root["copy"]?.keys, ["x"])
        XCTAssertEqual(root["copy"]?["x"]?.scalarText, "1")
        XCTAssertEqual(root["copy"]?.mark, at(2, 7))
        XCTAssertEqual(root["again"]?.scalarText, "moya")
        XCTAssertEqual(root["again"]?.mark, at(4, 8))
        XCTAssertEqual(root["more"]?.items?.compactMap(\.scalarText), ["1", "2"])
    }

    func testMergeKeyInsertsPairsWhereItStandsAndExplicitKeysWin() throws {
        // GIVEN a mapping that merges defaults between its own keys and overrides one of them
        let yaml = """
            defaults: &d { a: 1, b: 2 }
            m:
              x: 0
              <<: *d
              z: 3
              b: 9
            """
        // WHEN parsed
        let m = try XCTUnwrap(parseYAML(yaml)?["m"])
        // THEN merged pairs stand where `<<` stood, and the explicit b (written after) wins
        XCTAssertEqual(m.keys, ["x", "a", "z", "b"])
        XCTAssertEqual(m["a"]?.scalarText, "1")
        XCTAssertEqual(m["b"]?.scalarText, "9")
    }

    func testMergeKeyNeverReplacesAKeyWrittenBeforeIt() throws {
        // GIVEN an explicit key before the merge, in flow style
        let root = try XCTUnwrap(parseYAML("a: &a { k: from-a, only: 1 }\nm: { k: mine, <<: *a }\n"))
        // THEN the explicit key stays once, with its own value
        XCTAssertEqual(root["m"]?.keys, ["k", "only"])
        XCTAssertEqual(root["m"]?["k"]?.scalarText, "mine")
    }

    func testMergeListFirstSourceWins() throws {
        // GIVEN two merge sources that share a key
        let yaml = """
            a: &a { k: from-a, only-a: 1 }
            b: &b { k: from-b, only-b: 2 }
            m:
              <<: [*a, *b]
              own: 3
            """
        // WHEN parsed
        let m = try XCTUnwrap(parseYAML(yaml)?["m"])
        // THEN the shared key comes from the first source, and each key appears once
        XCTAssertEqual(m.keys, ["k", "only-a", "only-b", "own"])
        XCTAssertEqual(m["k"]?.scalarText, "from-a")
    }

    func testQuotedMergeKeyIsAnOrdinaryKey() throws {
        // GIVEN "<<" written as a quoted key
        let root = try XCTUnwrap(parseYAML("a: &a { k: 1 }\nm: { \"<<\": *a }\n"))
        // THEN it is not a merge
        XCTAssertEqual(root["m"]?.keys, ["<<"])
    }

    func testMergeOfAScalarIsABadMerge() {
        // GIVEN `<<` with a scalar, and with a list holding a scalar
        let scalar = yamlError("m:\n  <<: 5\n")
        let list = yamlError("a: &a { k: 1 }\nm:\n  <<: [*a, 1]\n")
        // THEN both are badMerge errors at the offending node
        XCTAssertEqual(scalar, YAMLError(.badMerge, "'<<' merges a mapping or a list of mappings, not a scalar", at: at(2, 7)))
        XCTAssertEqual(list, YAMLError(.badMerge, "'<<' merges mappings; this list holds a scalar", at: at(3, 12)))
    }

    // MARK: Errors

    func testDuplicateKeysInALargeMappingAndMergesAmongMany() throws {
        // GIVEN mappings past the size where duplicates are looked up instead of scanned for
        let keys = (1...40).map { "k\($0): \($0)" }
        for late in [10, 17, 40] {
            let error = yamlError((keys + ["k\(late): again"]).joined(separator: "\n") + "\n")
            XCTAssertEqual(error, YAMLError(.duplicateKey, "duplicate key 'k\(late)'", at: at(41, 1),
                                            note: ("first defined here", at(late, 1))))
        }
        // AND merges between many written keys keep their place and never replace a written key
        let yaml = "d: &d { k3: merged, extra: 1 }\nm:\n" + keys.prefix(20).map { "  " + $0 }.joined(separator: "\n")
            + "\n  <<: *d\n  last: 0\n"
        let m = try XCTUnwrap(parseYAML(yaml)?["m"])
        XCTAssertEqual(m.keys, (1...20).map { "k\($0)" } + ["extra", "last"])
        XCTAssertEqual(m["k3"]?.scalarText, "3")
    }

    func testEachMappingChecksItsOwnKeysWithNestedMappingsReadInBetween() throws {
        // GIVEN outer mappings (below and past the size where duplicates are looked up) whose
        // values are mappings with the same keys, read while the outer pairs are gathering
        let inner = (1...20).map { "k\($0): \($0)" }.joined(separator: ", ")
        let lines = (1...20).map { "k\($0): { \(inner), n: { k\($0): deep } }" }
        for count in [5, 20] {
            // WHEN parsed
            let root = try XCTUnwrap(parseYAML(lines.prefix(count).joined(separator: "\n") + "\n"))
            // THEN no nested key counts as a duplicate and every mapping holds its own keys, in order
            XCTAssertEqual(root.keys, (1...count).map { "k\($0)" })
            for i in 1...count {
                XCTAssertEqual(root["k\(i)"]?.keys, (1...20).map { "k\($0)" } + ["n"])
                XCTAssertEqual(root["k\(i)"]?["k7"]?.scalarText, "7")
                XCTAssertEqual(root["k\(i)"]?["n"]?["k\(i)"]?.scalarText, "deep")
            }
            // AND a key written again after them is a duplicate at the outer level, with its marks
            let error = yamlError((lines.prefix(count) + ["k3: again"]).joined(separator: "\n") + "\n")
            XCTAssertEqual(error, YAMLError(.duplicateKey, "duplicate key 'k3'", at: at(count + 1, 1),
                                            note: ("first defined here", at(3, 1))))
        }
    }

    func testDuplicateKeyIsAnErrorAtTheSecondWithANoteAtTheFirst() {
        // GIVEN a nested mapping with a key written twice
        let yaml = """
            targets:
              zen: { path: /zen }
              other: {}
              zen: { path: /again }
            """
        // WHEN parsed
        let error = yamlError(yaml)
        // THEN the error names the key, points at the second and notes the first
        XCTAssertEqual(error, YAMLError(.duplicateKey, "duplicate key 'zen'", at: at(4, 3),
                                        note: ("first defined here", at(2, 3))))
    }

    func testUnknownAliasIsAnError() {
        // GIVEN an alias with no anchor
        let error = yamlError("a: 1\nb: *nope\n")
        // THEN it is reported where the alias stands
        XCTAssertEqual(error, YAMLError(.unknownAlias, "unknown alias '*nope'; define '&nope' before using it", at: at(2, 4),
                                        hint: "'*' at the start of a value is an alias (*name repeats &name); quote the value: b: \"*nope\""))
    }

    func testAliasInsideItsOwnAnchorIsUnknownNotARecursion() {
        // GIVEN a node that refers to itself
        let error = yamlError("a: &a [1, *a]\n")
        // THEN the alias is not yet defined
        XCTAssertEqual(error?.kind, .unknownAlias)
        XCTAssertEqual(error?.mark, at(1, 11))
    }

    func testEmptyInputIsNil() throws {
        // GIVEN empty text, blank lines, and only comments
        // THEN there is no document
        XCTAssertNil(try parseYAML(""))
        XCTAssertNil(try parseYAML("\n\n  \n"))
        XCTAssertNil(try parseYAML("# only a comment\n# and another\n"))
    }

    func testTwoDocumentsAreAnError() {
        // GIVEN a second document after the first
        let implicit = yamlError("a: 1\n---\nb: 2\n")
        let explicit = yamlError("---\na: 1\n---\nb: 2\n")
        // THEN the error points at the second document's start
        let message = "a target file holds one YAML document; a second one starts here"
        XCTAssertEqual(implicit, YAMLError(.multipleDocuments, message, at: at(2, 1)))
        XCTAssertEqual(explicit, YAMLError(.multipleDocuments, message, at: at(3, 1)))
    }

    func testOneDocumentWithMarkersIsFine() throws {
        // GIVEN explicit start and end markers around one document
        let root = try XCTUnwrap(parseYAML("---\na: 1\n...\n"))
        // THEN it is read
        XCTAssertEqual(root["a"]?.scalarText, "1")
    }

    func testMappingValueInAPlainScalarIsASyntaxErrorWithLibyamlsText() {
        // GIVEN `a: b: c`
        let error = yamlError("a: b: c\n")
        // THEN libyaml's problem text at the second colon, with no context note
        XCTAssertEqual(error, YAMLError(.syntax, "mapping values are not allowed in this context", at: at(1, 5),
                                        hint: "a second ':' in a plain value; quote the value: a: \"b: c\""))
    }

    func testBadIndentIsASyntaxErrorWithLibyamlsContextAsNote() {
        // GIVEN a key indented less than its siblings but more than its parent
        let error = yamlError("a:\n  b: 1\n c: 2\n")
        // THEN libyaml's problem and its context, both placed
        XCTAssertEqual(error, YAMLError(.syntax, "did not find expected key", at: at(3, 2),
                                        note: ("while parsing a block mapping", at(1, 1)),
                                        hint: "line 3 is indented 1 space, but the keys of the mapping on line 1 are indented 0; "
                                            + "indent it like the key it belongs beside"))
    }

    func testInvalidUTF8IsASyntaxErrorPlacedFromTheByteOffset() {
        // GIVEN a 0xFF byte on the second line (libyaml gives only a byte offset for it)
        let bytes = Array("a: b\nc: ".utf8) + [0xFF] + Array("\n".utf8)
        // WHEN parsed
        let error = yamlError(bytes)
        // THEN the mark is computed from the offset: line 2, column 4
        XCTAssertEqual(error, YAMLError(.syntax, "invalid leading UTF-8 octet (byte 0xff)", at: at(2, 4)))
    }

    func testAnErrorPastLibyamlsFirstReadsIsPlacedFromTheWholeInput() {
        // GIVEN 3,000 lines (~40 KB: libyaml reads its input a piece at a time, not in one) and then a
        // bad byte, and, in a second text, a value with a second ':' on the last line
        let lines = (0..<3_000).map { "key\($0): value \($0)\n" }.joined()
        let badByte = yamlError(Array(lines.utf8) + Array("last: ".utf8) + [0xFF] + Array("\n".utf8))
        let secondColon = yamlError(lines + "last: b: c\n")
        // THEN each is placed on line 3,001 from the whole input, and the hint quotes that line
        XCTAssertEqual(badByte, YAMLError(.syntax, "invalid leading UTF-8 octet (byte 0xff)", at: at(3_001, 7)))
        XCTAssertEqual(secondColon, YAMLError(.syntax, "mapping values are not allowed in this context", at: at(3_001, 8),
                                              hint: "a second ':' in a plain value; quote the value: last: \"b: c\""))
    }

    func testMarksPastThe32BitRangeAreKeptAsTheLargestNumber() {
        // GIVEN marks past what 32 bits hold (a mark is two 32-bit numbers)
        let mark = Mark(line: Int(Int32.max) + 10, column: Int.max)
        var moved = Mark(line: 1, column: 1)
        moved.line = Int.max
        // THEN each is kept as the largest, and marks still order by line, then column
        XCTAssertEqual(mark.line, Int(Int32.max))
        XCTAssertEqual(mark.column, Int(Int32.max))
        XCTAssertEqual(moved.description, "2147483647:1")
        XCTAssertLessThan(Mark(line: 2, column: 9), Mark(line: 3, column: 1))
        XCTAssertLessThan(Mark(line: 3, column: 1), mark)
    }

    func testInvalidUTF8MarkCountsCharactersBeforeIt() {
        // GIVEN a bad byte after a two-byte character on the first line
        let bytes = Array("key: é ".utf8) + [0xFE, 0x0A]
        // WHEN parsed
        let error = yamlError(bytes)
        // THEN seven characters (eight bytes) come before it: column 8
        XCTAssertEqual(error, YAMLError(.syntax, "invalid leading UTF-8 octet (byte 0xfe)", at: at(1, 8)))
    }

    func testTruncatedUTF8SequenceIsASyntaxError() {
        // GIVEN the first byte of a two-byte sequence followed by a newline
        let bytes = Array("a: b\nc: ".utf8) + [0xC3, 0x0A]
        // WHEN parsed
        let error = yamlError(bytes)
        // THEN libyaml names the bad trailing byte, at its place (after 'c', ':', ' ' and the lead byte)
        XCTAssertEqual(error, YAMLError(.syntax, "invalid trailing UTF-8 octet (byte 0xa)", at: at(2, 5)))
    }

    func testInvalidUTF16IsPlacedByCharactersNotBytes() {
        // GIVEN UTF-16LE text (with a BOM) holding a lone low surrogate after "c: " on line 2;
        // libyaml reports it at byte offset 18 (2 BOM bytes + 8 two-byte units)
        let units = Array("a: b\nc: ".utf16) + [0xDC00] + Array("\n".utf16)
        let bytes: [UInt8] = [0xFF, 0xFE] + units.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
        // WHEN parsed
        let error = yamlError(bytes)
        // THEN it is a syntax error at line 2, column 4: the mark counts characters, as for UTF-8
        // (counting UTF-8 lead bytes in UTF-16 data also counts the BOM and every 0x00 byte)
        XCTAssertEqual(error?.kind, .syntax)
        XCTAssertEqual(error?.mark, at(2, 4))
        XCTAssertTrue(error?.message.hasPrefix("unexpected low surrogate area") ?? false, error?.message ?? "no error")
    }

    // MARK: Limits

    func testDeepNestingIsALimitErrorNotACrash() {
        // GIVEN 10,000 nested flow sequences
        let text = String(repeating: "[", count: 10_000)
        // WHEN parsed
        let error = yamlError(text)
        // THEN the 257th level is refused
        XCTAssertEqual(error, YAMLError(.limit, "collections nested deeper than 256 levels", at: at(1, 257)))
    }

    func testDepthLimitCountsMappingsAndSequencesAndIsConfigurable() throws {
        // GIVEN a limit of 3 levels
        var limits = YAMLParser.Limits()
        limits.maxDepth = 3
        // THEN three levels parse and a fourth is refused, whatever the collection kind
        XCTAssertNotNil(try parseYAML("[[[1]]]", limits: limits))
        XCTAssertNotNil(try parseYAML("a:\n  b:\n    c: 1\n", limits: limits))
        XCTAssertEqual(yamlError("[[[[1]]]]", limits: limits),
                       YAMLError(.limit, "collections nested deeper than 3 levels", at: at(1, 4)))
        XCTAssertEqual(yamlError("a:\n  b:\n    c: [1]\n", limits: limits),
                       YAMLError(.limit, "collections nested deeper than 3 levels", at: at(3, 8)))
    }

    func testAliasesCannotNestDeeperThanTheDepthLimit() {
        // GIVEN two anchored lists, each 3 levels deep, the second holding the first at its bottom:
        // as written no collection is more than 4 levels deep (the root included), within a limit
        // of 5, but the resolved tree is 7 levels deep
        var limits = YAMLParser.Limits()
        limits.maxDepth = 5
        let yaml = "a: &a [[[1]]]\nb: &b [[[*a]]]\n"
        // WHEN parsed
        let error = yamlError(yaml, limits: limits)
        // THEN the limit holds for the resolved tree too. Otherwise a ~45 KB file of 86 chained
        // anchors, each 250 levels deep, stays under both limits yet resolves to a tree ~21,000
        // levels deep, and decoding it as a `json:` body crashes (stack overflow in NodeReader.value)
        XCTAssertEqual(error?.kind, .limit)
    }

    func testAliasExpansionIsBoundedByTheLimit() {
        // GIVEN a limit of 10 aliased nodes and three aliases of a 4-node list
        var limits = YAMLParser.Limits()
        limits.maxAliasedNodes = 10
        // WHEN parsed
        let error = yamlError("a: &a [1, 2, 3]\nb: [*a, *a, *a]\n", limits: limits)
        // THEN the third alias (12 nodes in all) is refused where it stands
        XCTAssertEqual(error, YAMLError(.limit, "aliases expand to more than 10 nodes", at: at(2, 13)))
    }

    func testBillionLaughsIsALimitErrorAndQuick() {
        // GIVEN the classic alias bomb: nine levels, each nine aliases of the one before
        var yaml = "a: &a [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]\n"
        let names = ["a", "b", "c", "d", "e", "f", "g", "h", "i"]
        for (previous, name) in zip(names, names.dropFirst()) {
            let aliases = Array(repeating: "*\(previous)", count: 9).joined(separator: ",")
            yaml += "\(name): &\(name) [\(aliases)]\n"
        }
        // WHEN parsed
        let start = Date()
        let error = yamlError(yaml)
        let seconds = Date().timeIntervalSince(start)
        // THEN it stops at the default limit, in well under a few seconds
        XCTAssertEqual(error?.kind, .limit)
        XCTAssertEqual(error?.message, "aliases expand to more than 1000000 nodes")
        XCTAssertEqual(error?.mark, at(7, 8), "the first alias of g (f is ~600,000 nodes) crosses the limit")
        XCTAssertLessThan(seconds, 5)
    }

    // MARK: One target of many (call, show)

    func testOnlyTargetLeavesOutTheOtherTargetsAndKeepsEverythingElse() throws {
        // GIVEN a file whose wanted target uses an anchor defined inside a target that is left out,
        // and a nested mapping also called targets
        let yaml = """
            baseURL: https://x.test
            headers: { X-A: 1 }
            targets:
              first:
                path: /first
                sample: &shared { status: 201, json: { targets: { keep: me } } }
              wanted:
                path: /wanted
                sample: *shared
                x-meta: { targets: { a: 1, b: 2 } }
              last: { path: /last, deep: [[[1]]] }
            """
        // WHEN parsed for `wanted` only
        let root = try XCTUnwrap(YAMLParser.parse(Array(yaml.utf8), onlyTarget: "wanted"))
        // THEN the other targets are gone, the root's other keys and the wanted target whole
        XCTAssertEqual(root.keys, ["baseURL", "headers", "targets"])
        XCTAssertEqual(root["targets"]?.keys, ["wanted"])
        let wanted = try XCTUnwrap(root["targets"]?["wanted"])
        XCTAssertEqual(wanted["sample"]?["status"]?.scalarText, "201")
        XCTAssertEqual(wanted["sample"]?["json"]?["targets"]?["keep"]?.scalarText, "me")
        XCTAssertEqual(wanted["sample"]?.mark, at(9, 13))
        XCTAssertEqual(wanted["x-meta"]?["targets"]?.keys, ["a", "b"])
        // AND a full parse of the same text is unchanged
        XCTAssertEqual(try XCTUnwrap(parseYAML(yaml))["targets"]?.keys, ["first", "wanted", "last"])
    }

    func testOnlyTargetStillRejectsDuplicateAndHostileTargets() {
        // GIVEN a duplicate target name among the left-out ones
        XCTAssertThrowsError(try YAMLParser.parse(Array("targets:\n  a: 1\n  b: 2\n  a: 3\n".utf8), onlyTarget: "b")) { error in
            XCTAssertEqual(error as? YAMLError, YAMLError(.duplicateKey, "duplicate key 'a'", at: at(4, 3),
                                                         note: ("first defined here", at(2, 3))))
        }
        // AND a left-out target nested deeper than the limit
        var limits = YAMLParser.Limits()
        limits.maxDepth = 8
        let deep = "targets:\n  a: " + String(repeating: "[", count: 20) + String(repeating: "]", count: 20) + "\n  b: 1\n"
        XCTAssertThrowsError(try YAMLParser.parse(Array(deep.utf8), limits: limits, onlyTarget: "b")) { error in
            XCTAssertEqual((error as? YAMLError)?.kind, .limit)
        }
        // AND a syntax error inside a left-out target is still one
        XCTAssertThrowsError(try YAMLParser.parse(Array("targets:\n  a: { x: [1, }\n  b: 1\n".utf8), onlyTarget: "b"))
    }
}
