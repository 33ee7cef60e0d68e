import APITargets
import APIYAML
import APIJSON
import APISchema
import APITransport
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
            case .list, .map: text = v.jsonValue.jsonText  // an object part travels as JSON
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

extension YAMLOut {
    /// The value as JSON data (comments left out).
    var jsonValue: Value {
        switch self {
        case .null: return .null
        case .bool(let b): return .bool(b)
        case .number(let n): return .number(n)
        case .string(let s): return .json(s)
        case .list(let items): return .array(items.map(\.jsonValue))
        case .map, .blockMap: return .object((pairs ?? []).map { Value.Member(key: $0.0, value: $0.1.jsonValue) })
        }
    }
}
