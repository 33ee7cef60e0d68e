import APISupport
import APIYAML
import APIDiagnostics

/// The targets of a large file decoded while the parser reads it (`YAMLParser.parse(_:streamingTo:_:)`):
/// each part's entries of `targets:` on that part's thread, each entry's nodes let go as soon as its
/// target is decoded, so the file's tree is never whole in memory (the memory, page faults and
/// freeing that `list` and `validate` of thousands of targets spent most on).
///
/// The result must be the one the tree gives, so it is used only where decoding cannot differ: the
/// service's name was known before the targets were read (the guess is checked), no `include:` (a
/// block read by each part's decoder), and with aliases (nodes shared between targets) no problem
/// at all. Otherwise the file is decoded from its tree as ever.
struct StreamedTargets {
    let first: Sink
    let second: Sink
    /// The targets of both parts in file order.
    let targets: [Target]

    /// Files larger than this (past the default `TargetFile.defaultMaxSize`) are decoded from their
    /// tree: a syntax error at the end of such a file is found only after every target before it is
    /// decoded, and a file of small targets holds more memory decoded than as a tree.
    static let maximumSize = 32 << 20

    /// The most targets a part writes in place (a 32 MiB file holds about 150,000 of the bench's).
    static let maximumRoom = 1 << 17

    /// Decodes `bytes` streaming when it can (`streamed`), or from the tree the reading gave when
    /// it was not streamed; nil when the streamed targets cannot be used (read the file as ever).
    static func decode(_ bytes: [UInt8], file: String, defaultName: String, documents: [String: OpenAPIContract.Document],
                       maximumRoom: Int = maximumRoom) -> (result: Result<Service, APIError>, streamed: Bool)? {
        guard bytes.count <= maximumSize, let estimate = YAMLParser.targetEntryCounts(bytes) else { return nil }
        // Room for at most `maximumRoom` a part: lines at the entries' column need not be entries
        // (a file of such lines would otherwise ask for gigabytes); more go to `overflow`.
        let counts = (first: min(estimate.first, maximumRoom), second: min(estimate.second, maximumRoom))
        let prelude = YAMLParser.prelude(bytes)
        // `include:` written before the targets: the tree's decoding, without reading the file twice.
        if prelude?.pairs?.contains(where: { $0.key.scalarText == "include" }) == true { return nil }
        let name = prelude.flatMap(writtenName) ?? defaultName
        var outcome: Result<(root: Node?, streamed: Bool, aliases: Bool), YAMLError> = .success((nil, false, false))
        var sinks: (Sink, Sink)?
        // The targets are written where the service's array keeps them, each part from its own place
        // (the counts are estimates: what does not fit goes to the part's `overflow`), and the second
        // part's moved up to the first's end: no second copy of thousands of targets.
        var targets = [Target](unsafeUninitializedCapacity: max(1, counts.first + counts.second)) { buffer, count in
            let base = buffer.baseAddress!
            let first = Sink(file: file, service: name, documents: documents, room: base, capacity: counts.first)
            let second = Sink(file: file, service: name, documents: documents, room: base + counts.first, capacity: counts.second)
            sinks = (first, second)
            outcome = Result { () throws(YAMLError) in try YAMLParser.parse(bytes, streamingTo: first, second, counted: estimate) }
            guard case .success(let parsed) = outcome, parsed.streamed else {
                first.discard()
                second.discard()
                count = 0
                return
            }
            guard first.overflow.isEmpty, second.overflow.isEmpty else {
                count = 0  // moved out below, while this memory is still there
                return
            }
            if first.count < counts.first { (base + first.count).moveInitialize(from: base + counts.first, count: second.count) }
            count = first.count + second.count
            first.count = 0
            second.count = 0
        }
        guard let (first, second) = sinks else { return nil }
        let parsed: (root: Node?, streamed: Bool, aliases: Bool)
        switch outcome {
        case .success(let p): parsed = p
        case .failure(let error): return (.failure(.invalid(Diagnostic(file: file, error))), false)
        }
        guard parsed.streamed else {
            return (Result { () throws(APIError) in
                try TargetFile.decode(parsed.root, file: file, defaultName: defaultName, only: nil, documents: documents)
            }, false)
        }
        if targets.isEmpty {
            targets = first.moveOut() + second.moveOut()
        }
        guard let root = parsed.root, let pairs = root.pairs, (writtenName(root) ?? defaultName) == name,
              !pairs.contains(where: { $0.key.scalarText == "include" }),
              !first.decoder.includedBlocks, !second.decoder.includedBlocks,
              !parsed.aliases || (first.decoder.reader.diagnostics.isEmpty && second.decoder.reader.diagnostics.isEmpty)
        else { return nil }
        let streamed = StreamedTargets(first: first, second: second, targets: targets)
        return (Result { () throws(APIError) in
            try TargetFile.decode(root, file: file, defaultName: defaultName, only: nil, documents: documents, streamed: streamed)
        }, true)
    }

    /// The service's name as `ServiceDecoder.service` reads it from the root's `service:`; nil: the default.
    static func writtenName(_ root: Node) -> String? {
        guard let value = root.pairs?.first(where: { $0.key.scalarText == "service" })?.value,
              case .scalar(let s) = value.content, !value.isNull else { return nil }
        return s.value
    }

    /// The parts' problems, warnings and files after `decoder`'s, as the tree's decoding has them
    /// (every non-text key of `targets:` before any target's problem), and their targets.
    func join(into decoder: inout ServiceDecoder) -> [Target] {
        decoder.reader.append(first.keys)
        decoder.reader.append(second.keys)
        decoder.reader.append(first.decoder.reader)
        decoder.files += first.decoder.files
        decoder.reader.append(second.decoder.reader, droppingRepeats: true)
        decoder.files += second.decoder.files
        return targets
    }

    /// One part's decoder, and the targets it decoded: the first `capacity` in `room`, the rest in
    /// `overflow`. `room` belongs to the array being made, which takes or drops them (`count` 0 after).
    final class Sink: TargetEntrySink {
        var decoder: ServiceDecoder
        /// The non-text keys of `targets:` (`NodeReader.mapping`'s problems).
        var keys: NodeReader
        let service: String
        private let room: UnsafeMutablePointer<Target>
        private let capacity: Int
        /// Targets initialized in `room`.
        var count = 0
        private(set) var overflow: [Target] = []

        init(file: String, service: String, documents: [String: OpenAPIContract.Document],
             room: UnsafeMutablePointer<Target>, capacity: Int) {
            decoder = ServiceDecoder(file: file)
            decoder.contractDocuments = documents
            keys = NodeReader(file: file)
            self.service = service
            self.room = room
            self.capacity = capacity
        }

        func entry(key: Node, value: consuming Node) {
            guard let text = key.scalarText else {
                keys.nonTextKey(key, "targets")
                return
            }
            if count < capacity {
                if decoder.entryTarget(text, key.mark, value, service: service, into: room + count) { count += 1 }
            } else if let target = decoder.entryTarget(text, key.mark, value, service: service) {
                overflow.append(target)
            }
        }

        /// Drops the targets decoded so far.
        func discard() {
            room.deinitialize(count: count)
            count = 0
            overflow = []
        }

        /// The targets in order, moved out of `room` (what did not all fit there).
        func moveOut() -> [Target] {
            var out: [Target] = []
            out.reserveCapacity(count + overflow.count)
            for i in 0..<count { out.append((room + i).move()) }
            count = 0
            out += overflow
            overflow = []
            return out
        }
    }
}
