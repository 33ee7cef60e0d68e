import CLibYAML

/// Receives the entries of the root's `targets:` mapping one at a time, each as soon as it is read,
/// instead of the tree holding them (`SplitParse.parseStreaming`): the reader of a file of thousands
/// of targets decodes each and lets its nodes go, so the whole tree is never in memory at once.
package protocol TargetEntrySink: AnyObject {
    func entry(key: Node, value: consuming Node)
    /// What was received means nothing (the file is read again, as a tree): let it go now.
    func discard()
}

/// Reads one YAML document into a `Node` tree by recursive descent over libyaml's events.
///
/// Anchors and aliases are resolved (an alias is a copy of its anchored node, cheap because
/// arrays are copy-on-write), merge keys are applied, duplicate keys are rejected, and nesting and
/// alias expansion are bounded so hostile input ends in an error, not a crash or a hang.
package final class YAMLParser {
    package struct Limits: Sendable {
        /// Collections nested deeper than this are an error (each level is a stack frame here).
        package var maxDepth = 256
        /// Nodes that aliases may copy in all, which stops "billion laughs" documents.
        package var maxAliasedNodes = 1_000_000
        package init() {}
    }

    /// Parses `bytes` (UTF-8, UTF-16 with a BOM) and returns its one document, or nil for an empty file.
    ///
    /// `onlyTarget`: the entries of the top-level `targets:` mapping other than this one are left
    /// out of the tree (their events are read, no nodes built, except anchored ones an alias may
    /// use): what `call` needs from a file of thousands of targets. Their keys are still checked
    /// for duplicates.
    ///
    /// A large file without `onlyTarget` may be read in two halves on two threads (see
    /// `SplitParse`); the tree, and any error, are the same as one reading gives.
    ///
    /// With `onlyTarget`, libyaml reads only the file's other root keys and that entry when a scan
    /// of the lines shows where it is (see `OneTargetParse`); otherwise the whole file, as above.
    package static func parse(_ bytes: [UInt8], limits: Limits = Limits(), onlyTarget: String? = nil) throws(YAMLError) -> Node? {
        if let onlyTarget {
            if let node = OneTargetParse.parse(bytes, target: onlyTarget, limits: limits) { return node }
        } else if let node = SplitParse.parse(bytes, limits: limits) { return node }
        return try serial(bytes, limits: limits, onlyTarget: onlyTarget)
    }

    /// `parse`, but when the file is read in two parts (`SplitParse`) the entries of the root's
    /// `targets:` mapping go to the sinks as each is read, the first part's to `first` on this thread
    /// and the second's to `second` on another, and that mapping is left empty in the tree
    /// (`streamed`). `aliases`: an alias was used somewhere (only known when `streamed`).
    /// Not streamed: the sinks' entries mean nothing, and the tree is `parse`'s.
    /// `counted`: `targetEntryCounts` of these bytes (where the file is cut, found once).
    package static func parse(_ bytes: [UInt8], limits: Limits = Limits(), streamingTo first: TargetEntrySink,
                              _ second: TargetEntrySink, counted: TargetEntryCounts? = nil) throws(YAMLError)
        -> (root: Node?, streamed: Bool, aliases: Bool) {
        let streamed = SplitParse.parseStreaming(bytes, limits: limits, first: first, second: second, cut: counted?.cut)
        if case .root(let root, let aliases) = streamed { return (root, true, aliases) }
        // Before the tree is built: what the sinks hold is not to add to it.
        first.discard()
        second.discard()
        if case .serial = streamed { return (try serial(bytes, limits: limits), false, false) }
        return (try parse(bytes, limits: limits), false, false)
    }

    /// How many entries of the root's `targets:` mapping each part of `parse(_:streamingTo:_:)` will
    /// hand its sink, estimated from the lines: room to make, never trusted. nil: the file is not
    /// read in two parts (nothing is streamed).
    package static func targetEntryCounts(_ bytes: [UInt8]) -> TargetEntryCounts? {
        SplitParse.entryCounts(bytes)
    }

    /// `targetEntryCounts`: each part's estimate, and where the file is cut (for `parse(_:streamingTo:_:counted:)`).
    package struct TargetEntryCounts {
        package var first: Int
        package var second: Int
        let cut: SplitParse.Cut
    }

    /// The lines before the root's `targets:` line (`targets:` at column 1), read alone: nil when
    /// there is none, or they are not a YAML document of their own. A guess at the root's other keys
    /// before the file is read (`parse(_:streamingTo:_:)`'s sinks need the service's name), never more.
    package static func prelude(_ bytes: [UInt8], limits: Limits = Limits()) -> Node? {
        guard let end = bytes.withUnsafeBufferPointer({ SplitParse.targetsLine($0) }) else { return nil }
        return (try? YAMLParser(bytes: bytes[..<end], limits: limits).document()) ?? nil
    }

    /// The tree `parse(_:onlyTarget:)` gives when a scan of the lines finds the target's entry
    /// (`OneTargetParse`), read from bytes in place (a mapped file); nil: read the file with `parse`.
    package static func parseOneTarget(_ bytes: UnsafeBufferPointer<UInt8>, target: String, limits: Limits = Limits()) -> Node? {
        OneTargetParse.parse(bytes, target: target, limits: limits)
    }

    /// `parse` on this thread, in one reading.
    static func serial(_ bytes: [UInt8], limits: Limits = Limits(), onlyTarget: String? = nil) throws(YAMLError) -> Node? {
        let parser = YAMLParser(bytes: bytes[...], limits: limits)
        parser.onlyTarget = onlyTarget
        return try parser.document()
    }

    private let parser: UnsafeMutablePointer<yaml_parser_t>
    private let event: UnsafeMutablePointer<yaml_event_t>
    private let input: Input
    private var holdsEvent = false
    /// Anchored nodes with their size in nodes and their height in nested collections.
    private var anchors: [String: (node: Node, size: Int, height: Int)] = [:]
    /// The deepest collection level reached so far (aliases count with their anchored height).
    private var deepest = 0
    private var aliasedNodes = 0
    private let limits: Limits
    private var onlyTarget: String?
    /// Set just before the value of the root's `targets:` key is read (with `onlyTarget` or `sink`).
    private var atTargets = false
    /// Receives the entries of the root's `targets:` mapping (when it has no anchor or tag) in place of
    /// the tree: that mapping's node is left empty.
    var sink: TargetEntrySink?
    /// The entries went to `sink`.
    private(set) var streamed = false
    /// The scalar keys of the entries `sink` received, with their marks.
    private(set) var streamedKeys: [String: Mark] = [:]

    // What `SplitParse` checks after reading a part of a file (see there).
    /// Added to every line this parser reports: the part's first line in the whole file, less one.
    var lineOffset = 0
    /// `OneTargetParse`: from libyaml's line `from` (0-based) on, `by` more is added (ascending;
    /// the last that applies counts): the lines left out before each part read.
    var lineShifts: [(from: Int, by: Int)] = []
    /// `OneTargetParse`: the anchor names aliases used (nil: not recorded).
    var usedAliases: Set<String>?
    /// The document starts with `%YAML` or `%TAG` directives.
    private(set) var hasDirectives = false
    /// The document ends with `...`.
    private(set) var explicitEnd = false
    /// Where the stream ends, as libyaml counts (lines from 0, without `lineOffset`).
    private(set) var streamEnd: yaml_mark_t?
    /// A `<<` in the root mapping or in a mapping that is a value of the root.
    private(set) var mergesAtTop = false
    /// Nodes copied by aliases (see `Limits.maxAliasedNodes`).
    var aliasCopies: Int { aliasedNodes }
    /// The pairs and items of the collections being read, innermost last (see `ScratchStack`).
    private let pairStack = ScratchStack<Node.Pair>()
    private let itemStack = ScratchStack<Node>()

    /// Reads `prefix` followed by `bytes`.
    package init(bytes: ArraySlice<UInt8>, prefix: [UInt8] = [], limits: Limits) {
        self.limits = limits
        // libyaml keeps a pointer to its own struct, so the struct must not move: it lives in memory
        // this object allocates and frees. The input is not copied: libyaml asks `Input` for each
        // piece it reads (into its own buffer), and this object holds `Input` as long as libyaml may ask.
        input = Input(prefix: prefix, bytes: bytes)
        parser = .allocate(capacity: 1)
        event = .allocate(capacity: 1)
        yaml_parser_initialize(parser)
        yaml_parser_set_input(parser, { data, buffer, size, sizeRead in
            guard let data, let buffer, let sizeRead else { return 0 }
            sizeRead.pointee = Unmanaged<Input>.fromOpaque(data).takeUnretainedValue().read(into: buffer, max: size)
            return 1
        }, Unmanaged.passUnretained(input).toOpaque())
    }

    /// `prefix` followed by `bytes`, read in order by libyaml (`read`) and by index for messages.
    private final class Input {
        let prefix: [UInt8]
        let bytes: ArraySlice<UInt8>
        /// How much libyaml has read.
        private var position = 0

        init(prefix: [UInt8], bytes: ArraySlice<UInt8>) {
            self.prefix = prefix
            self.bytes = bytes
        }

        var count: Int { prefix.count + bytes.count }

        subscript(i: Int) -> UInt8 {
            i < prefix.count ? prefix[i] : bytes[bytes.startIndex + i - prefix.count]
        }

        /// Copies the next bytes, at most `max`, to `buffer`; returns how many (0 at the end).
        func read(into buffer: UnsafeMutablePointer<UInt8>, max: Int) -> Int {
            var n = 0
            if position < prefix.count {
                n = min(max, prefix.count - position)
                prefix.withUnsafeBytes { UnsafeMutableRawPointer(buffer).copyMemory(from: $0.baseAddress! + position, byteCount: n) }
                position += n
            }
            let at = position - prefix.count
            let m = min(max - n, bytes.count - at)
            if m > 0 {
                bytes.withUnsafeBytes { UnsafeMutableRawPointer(buffer + n).copyMemory(from: $0.baseAddress! + at, byteCount: m) }
                position += m
                n += m
            }
            return n
        }
    }

    deinit {
        if holdsEvent { yaml_event_delete(event) }
        yaml_parser_delete(parser)
        parser.deallocate()
        event.deallocate()
    }

    // MARK: Events

    private func advance() throws(YAMLError) {
        if holdsEvent {
            yaml_event_delete(event)
            holdsEvent = false
        }
        guard yaml_parser_parse(parser, event) == 1 else { throw libyamlError() }
        holdsEvent = true
    }

    private var type: yaml_event_type_t { event.pointee.type }
    private var mark: Mark { markAt(event.pointee.start_mark) }

    private func markAt(_ m: yaml_mark_t) -> Mark {
        let line = Int(m.line)
        var add = lineOffset
        for shift in lineShifts where line >= shift.from { add = lineOffset + shift.by }
        return Mark(line: line + 1 + add, column: Int(m.column) + 1)
    }

    private static func string(_ p: UnsafeMutablePointer<yaml_char_t>?, length: Int? = nil) -> String? {
        guard let p else { return nil }
        guard let length else { return String(cString: p) }
        return String(decoding: UnsafeBufferPointer(start: p, count: length), as: UTF8.self)
    }

    private func libyamlError() -> YAMLError {
        let p = parser.pointee
        let problem = p.problem.map { String(cString: $0) } ?? "unreadable YAML"
        if p.error == YAML_READER_ERROR {
            // Encoding problems carry a byte offset, not a mark.
            let utf16 = p.encoding == YAML_UTF16LE_ENCODING || p.encoding == YAML_UTF16BE_ENCODING
            var text = problem
            if p.problem_value != -1 {
                let hex = String(p.problem_value, radix: 16)
                text += utf16 ? " (value 0x\(String(repeating: "0", count: max(0, 4 - hex.count)) + hex))" : " (byte 0x\(hex))"
            }
            let offset = Int(p.problem_offset)
            return YAMLError(.syntax, text, at: utf16 ? markOfUTF16Offset(offset, bigEndian: p.encoding == YAML_UTF16BE_ENCODING)
                                                      : markOfOffset(offset))
        }
        var note: (String, Mark)?
        if let context = p.context.map({ String(cString: $0) }) {
            note = (context, markAt(p.context_mark))
        }
        let mark = markAt(p.problem_mark)
        let hint = SyntaxHint.hint(problem: problem, context: note?.0, mark: mark, contextMark: note?.1, line: sourceLine)
        return YAMLError(.syntax, problem, at: mark, note: note, hint: hint)
    }

    /// Line `n` (1-based) of UTF-8 input without its line break; nil for UTF-16 input or past the end.
    private func sourceLine(_ n: Int) -> String? {
        let p = parser.pointee
        guard p.encoding != YAML_UTF16LE_ENCODING, p.encoding != YAML_UTF16BE_ENCODING, n >= 1 else { return nil }
        let lf = UInt8(ascii: "\n"), cr = UInt8(ascii: "\r")
        var line = 1, start = 0, i = 0
        while i < input.count, line < n {
            if input[i] == lf || input[i] == cr {
                if input[i] == cr, i + 1 < input.count, input[i + 1] == lf { i += 1 }
                line += 1
                start = i + 1
            }
            i += 1
        }
        guard line == n, start <= input.count else { return nil }
        var end = start
        while end < input.count, input[end] != lf, input[end] != cr { end += 1 }
        var bytes = (start..<end).map { input[$0] }
        if start == 0, bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Line and character column of a byte offset, for reader errors that only report the offset.
    private func markOfOffset(_ offset: Int) -> Mark {
        var line = 1, column = 1
        for byte in (0..<min(offset, input.count)).lazy.map({ self.input[$0] }) {
            if byte == UInt8(ascii: "\n") {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
        }
        return Mark(line: line, column: column)
    }

    /// The same for UTF-16 input: the offset counts bytes, columns count characters; a BOM is no column.
    private func markOfUTF16Offset(_ offset: Int, bigEndian: Bool) -> Mark {
        var line = 1, column = 1
        var i = 0
        let end = min(offset, input.count)
        while i + 2 <= end {
            let unit = bigEndian ? UInt16(input[i]) << 8 | UInt16(input[i + 1]) : UInt16(input[i + 1]) << 8 | UInt16(input[i])
            i += 2
            if unit == 0xFEFF { continue }
            if unit == 0x000A {
                line += 1
                column = 1
            } else if !(0xDC00...0xDFFF).contains(unit) {
                column += 1
            }
        }
        return Mark(line: line, column: column)
    }

    // MARK: Documents and nodes

    func document() throws(YAMLError) -> Node? {
        try advance()  // STREAM-START
        try advance()
        if type == YAML_STREAM_END_EVENT { streamEnd = event.pointee.start_mark; return nil }
        let start = event.pointee.data.document_start
        hasDirectives = start.version_directive != nil || start.tag_directives.start != start.tag_directives.end
        try advance()  // past DOCUMENT-START
        let (root, _) = try node(depth: 0)
        try advance()  // DOCUMENT-END
        explicitEnd = event.pointee.data.document_end.implicit == 0
        try advance()
        if type == YAML_STREAM_END_EVENT { streamEnd = event.pointee.start_mark }
        if type == YAML_DOCUMENT_START_EVENT {
            throw YAMLError(.multipleDocuments, "a target file holds one YAML document; a second one starts here", at: mark)
        }
        return root
    }

    /// Builds the node whose first event is the current one; returns it with its size in nodes.
    private func node(depth: Int) throws(YAMLError) -> (Node, Int) {
        let start = mark
        // Only the mapping that is the root's `targets:` value filters its entries, nothing inside it.
        let keep = atTargets ? onlyTarget : nil
        let stream = atTargets && sink != nil
        atTargets = false
        switch type {
        case YAML_ALIAS_EVENT:
            let name = Self.string(event.pointee.data.alias.anchor) ?? ""
            usedAliases?.insert(name)
            guard let anchored = anchors[name] else {
                let message = "unknown alias '*\(name)'; define '&\(name)' before using it"
                throw YAMLError(.unknownAlias, message, at: start,
                                hint: SyntaxHint.hint(problem: message, context: nil, mark: start, contextMark: nil, line: sourceLine))
            }
            aliasedNodes += anchored.size
            if aliasedNodes > limits.maxAliasedNodes {
                throw YAMLError(.limit, "aliases expand to more than \(limits.maxAliasedNodes) nodes", at: start)
            }
            if anchored.height > 0 {
                // An alias puts its whole tree here: it counts against the nesting limit as written out.
                try checkDepth(depth + anchored.height - 1, at: start)
                deepest = max(deepest, depth + anchored.height - 1)
            }
            var copy = anchored.node
            copy.mark = start
            return (copy, anchored.size)
        case YAML_SCALAR_EVENT:
            let s = event.pointee.data.scalar
            let value = Self.string(s.value, length: Int(s.length)) ?? ""
            let node = Node(content: .scalar(.init(value: value, isPlain: s.style == YAML_PLAIN_SCALAR_STYLE)),
                            tag: Self.string(s.tag), mark: start)
            remember(Self.string(s.anchor), node, size: 1, height: 0)
            return (node, 1)
        case YAML_SEQUENCE_START_EVENT:
            // Read anchor and tag from the START event: libyaml zero-fills END events.
            let anchor = Self.string(event.pointee.data.sequence_start.anchor)
            let tag = Self.string(event.pointee.data.sequence_start.tag)
            try checkDepth(depth, at: start)
            let outer = deepest
            deepest = depth
            let first = itemStack.count
            var size = 1
            try advance()
            while type != YAML_SEQUENCE_END_EVENT {
                let (item, itemSize) = try node(depth: depth + 1)
                itemStack.push(consume item)
                size += itemSize
                try advance()
            }
            let node = Node(content: .sequence(itemStack.pop(from: first)), tag: tag, mark: start)
            remember(anchor, node, size: size, height: deepest - depth + 1)
            deepest = max(outer, deepest)
            return (node, size)
        case YAML_MAPPING_START_EVENT:
            let anchor = Self.string(event.pointee.data.mapping_start.anchor)
            let tag = Self.string(event.pointee.data.mapping_start.tag)
            try checkDepth(depth, at: start)
            let outer = deepest
            deepest = depth
            let (pairs, size) = try mappingPairs(depth: depth, keep: keep, stream: stream && anchor == nil && tag == nil)
            let node = Node(content: .mapping(pairs), tag: tag, mark: start)
            remember(anchor, node, size: size, height: deepest - depth + 1)
            deepest = max(outer, deepest)
            return (node, size)
        default:
            throw YAMLError(.syntax, "unexpected YAML event", at: start)
        }
    }

    private func checkDepth(_ depth: Int, at mark: Mark) throws(YAMLError) {
        if depth >= limits.maxDepth {
            throw YAMLError(.limit, "collections nested deeper than \(limits.maxDepth) levels", at: mark)
        }
    }

    private func remember(_ anchor: String?, _ node: Node, size: Int, height: Int) {
        if let anchor { anchors[anchor] = (node, size, height) }
    }

    /// Reads a mapping's pairs up to MAPPING-END, rejecting duplicate keys and applying `<<` merges:
    /// merged pairs stand where the `<<` stood, and never replace a key the mapping writes itself.
    /// `keep`: leave out the values of plain keys other than it (and `<<`), see `onlyTarget`.
    /// `stream`: hand each entry to `sink` instead (a `<<` is applied as ever: `mergesAtTop`).
    ///
    /// Pairs go straight into the result; duplicate keys are found by a scan of the keys so far
    /// while the mapping is small (most are), by a dictionary once it is not.
    private func mappingPairs(depth: Int, keep: String? = nil, stream: Bool = false) throws(YAMLError) -> ([Node.Pair], Int) {
        // Pairs gather on `pairStack` above `first` (`written` of them) until the mapping ends.
        let first = pairStack.count
        var written: Int { pairStack.count - first }
        /// `<<` values, with the number of pairs written before each.
        var merges: [(at: Int, value: Node)] = []
        /// Every scalar key written so far, once there are more than `scanLimit` of them.
        var index: [String: Mark]?
        /// Keys of left-out entries (`keep`) or of entries handed to `sink` (`stream`), for the duplicate check.
        var leftOut: [String: Mark] = [:]
        var size = 1
        func duplicate(_ text: String, _ mark: Mark) throws(YAMLError) {
            let earlier: Mark?
            if let index {
                earlier = index[text]
            } else {
                earlier = pairStack.firstKeyMark(from: first, text)
            }
            if let earlier = earlier ?? leftOut[text] {
                throw YAMLError(.duplicateKey, "duplicate key '\(text)'", at: mark, note: ("first defined here", earlier))
            }
        }
        try advance()
        while type != YAML_MAPPING_END_EVENT {
            let (key, keySize) = try node(depth: depth + 1)
            try advance()
            // The key's text read once (nil: a collection as a key); `<<` told by its length first.
            let keyText = key.scalarText
            var mergeKey = false
            if let text = keyText, text.utf8.count == 2, text == "<<", case .scalar(let s) = key.content { mergeKey = s.isPlain }
            if let keep, let text = keyText, text != keep, !mergeKey {
                try duplicate(text, key.mark)
                leftOut[text] = key.mark
                try skip(depth: depth + 1)
                try advance()
                continue
            }
            atTargets = depth == 0 && (onlyTarget != nil || sink != nil) && keyText == "targets"
            let (value, valueSize) = try node(depth: depth + 1)
            try advance()
            size += keySize + valueSize
            if mergeKey, key.tag == nil || key.tag == "tag:yaml.org,2002:merge" {
                merges.append((written, value))
                continue
            }
            if stream, let sink {
                if let text = keyText {
                    try duplicate(text, key.mark)
                    leftOut[text] = key.mark
                }
                sink.entry(key: key, value: consume value)
                continue
            }
            if let text = keyText {
                try duplicate(text, key.mark)
                if index != nil {
                    index?[text] = key.mark
                } else if written >= Self.scanLimit {
                    var all = [String: Mark](minimumCapacity: written * 2)
                    pairStack.forEachKey(from: first) { t, mark in all[t] = mark }
                    all[text] = key.mark
                    index = all
                }
            }
            pairStack.push(.init(key: consume key, value: consume value))
        }
        let pairs = pairStack.pop(from: first)
        if stream {
            streamed = true
            streamedKeys = leftOut
        }
        guard !merges.isEmpty else { return (pairs, size) }
        if depth <= 1 { mergesAtTop = true }
        // Merged pairs stand where their `<<` stood and never replace a key the mapping writes.
        var seen = Set(pairs.compactMap(\.key.scalarText))
        var merged: [Node.Pair] = []
        merged.reserveCapacity(pairs.count)
        var next = 0
        for (at, value) in merges {
            merged += pairs[next..<at]
            next = at
            for source in try mergeSources(value) {
                for pair in source {
                    guard let text = pair.key.scalarText else { merged.append(pair); continue }
                    if seen.insert(text).inserted { merged.append(pair) }
                }
            }
        }
        merged += pairs[next...]
        return (merged, size)
    }

    /// Up to this many keys a mapping's duplicates are found by a scan, not a dictionary.
    private static let scanLimit = 16

    /// Reads past the node whose first event is the current one without building it, except for
    /// anchored nodes inside it (an alias elsewhere may use them), which are built and remembered.
    /// Ends on the node's last event, as `node` does.
    private func skip(depth: Int) throws(YAMLError) {
        var open = 0
        while true {
            switch type {
            case YAML_SCALAR_EVENT:
                if event.pointee.data.scalar.anchor != nil { _ = try node(depth: depth + open) }
            case YAML_SEQUENCE_START_EVENT:
                if event.pointee.data.sequence_start.anchor != nil { _ = try node(depth: depth + open) } else {
                    try checkDepth(depth + open, at: mark)
                    open += 1
                }
            case YAML_MAPPING_START_EVENT:
                if event.pointee.data.mapping_start.anchor != nil { _ = try node(depth: depth + open) } else {
                    try checkDepth(depth + open, at: mark)
                    open += 1
                }
            case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT:
                open -= 1
            case YAML_ALIAS_EVENT:
                break
            default:
                throw YAMLError(.syntax, "unexpected YAML event", at: mark)
            }
            if open == 0 { return }
            try advance()
        }
    }

    private func mergeSources(_ value: Node) throws(YAMLError) -> [[Node.Pair]] {
        if let pairs = value.pairs { return [pairs] }
        if let items = value.items {
            var sources: [[Node.Pair]] = []
            for item in items {
                guard let pairs = item.pairs else {
                    throw YAMLError(.badMerge, "'<<' merges mappings; this list holds \(item.kindName)", at: item.mark)
                }
                sources.append(pairs)
            }
            return sources
        }
        throw YAMLError(.badMerge, "'<<' merges a mapping or a list of mappings, not \(value.kindName)", at: value.mark)
    }
}
