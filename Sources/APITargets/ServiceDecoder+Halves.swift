import APISupport
extension ServiceDecoder {
    /// From this many targets in a file, `targets` decodes two halves at once (`BothCores`).
    static let bothCoresFrom = 1_000

    /// The targets of `targets:` in file order, with their problems, warnings and files in file order.
    mutating func targets(_ targetEntries: [NodeReader.Entry], service name: String) -> [Target] {
        if only == nil, targetEntries.count >= Self.bothCoresFrom {
            // The second half on a second thread, with a decoder of its own, each half written
            // straight into the one array (no second copy of every Target), joined in file order.
            let half = targetEntries.count / 2
            let (file, contractDocuments, serviceName) = (file, contractDocuments, name)
            let (serviceShared, sharedCache) = (serviceShared, sharedCache)
            var second: (reader: NodeReader, files: [FileReference])?
            let all = [Target](unsafeUninitializedCapacity: targetEntries.count) { buffer, count in
                let slots = Slots(start: buffer.baseAddress!)
                let (firstCount, other) = BothCores.run({
                    decodeTargets(targetEntries[..<half], service: serviceName, into: slots.start)
                }, {
                    var decoder = ServiceDecoder(file: file)
                    decoder.contractDocuments = contractDocuments
                    (decoder.serviceShared, decoder.sharedCache) = (serviceShared, sharedCache)
                    let n = decoder.decodeTargets(targetEntries[half...], service: serviceName, into: slots.start + half)
                    return (n, decoder.reader, decoder.files)
                })
                (slots.start + firstCount).moveInitialize(from: slots.start + half, count: other.0)
                count = firstCount + other.0
                second = (other.1, other.2)
            }
            if let second {
                reader.append(second.reader, droppingRepeats: true)  // an included file's problems, read by both halves
                files += second.files
            }
            return all
        }
        return [Target](unsafeUninitializedCapacity: targetEntries.count) { buffer, count in
            guard let start = buffer.baseAddress else { return }
            count = decodeTargets(targetEntries[...], service: name, into: start)
        }
    }

    /// Where the halves' targets are written (`targets`): memory only the two threads touch, each its own part.
    private struct Slots: @unchecked Sendable {
        let start: UnsafeMutablePointer<Target>
    }
}
