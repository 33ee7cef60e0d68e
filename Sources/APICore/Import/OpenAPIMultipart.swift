/// Multipart bodies → `multipart:` parts, one per property of the example (or schema sample).
/// A file part (`format: binary`) cannot name a file that exists, so it is written as a value part
/// with a comment: `apicli call … -F name=@PATH` sends the file.
extension OpenAPIMapper {
    func parts(_ value: YAMLOut, media: SpecNode, target t: inout TargetDraft) -> [YAMLOut] {
        let schema = media["schema"].flatMap { loader.resolve($0) }
        var out: [YAMLOut] = []
        for (name, v) in value.pairs ?? [("value", value)] {
            let property = schema?["properties"]?[name].flatMap { loader.resolve($0) }
            let file = Self.isBinary(property) || Self.isBinary(property?["items"])
            var part: [YAMLOut.Entry] = [.pair("name", .string(name))]
            let text: String
            switch v {
            case .list, .map: text = v.flowText
            default: text = v.scalarText ?? ""
            }
            part.append(.pair("value", .string(ImportText.literal(file ? "" : text))))
            if file {
                t.notes.append("Part '\(name)' is a file: send it with -F \(name)=@PATH.")
            }
            out.append(.map(part))
        }
        return out
    }
}
