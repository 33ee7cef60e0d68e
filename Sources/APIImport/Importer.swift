import APIDiagnostics
/// What an importer reads: a file's bytes or a command's text, and the name warnings give it
/// (the file as the user named it, `curl` for a command). A UTF-8 byte order mark at the start
/// is left out, as JSON readers may (RFC 8259 §8.1) and YAML's do.
package struct ImportInput: Sendable {
    package var name: String
    package var bytes: [UInt8]

    package init(name: String, bytes: [UInt8]) {
        self.name = name
        self.bytes = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? Array(bytes.dropFirst(3)) : bytes
    }

    package init(name: String, text: String) {
        self.init(name: name, bytes: Array(text.utf8))
    }

    var text: String { String(decoding: bytes, as: UTF8.self) }
}

/// One importer: curl, OpenAPI, Postman, Insomnia, HAR. `read` maps its input onto service drafts
/// (one per origin: `ImportOrigins`; names made unique by `UniqueNames`) and warnings; `run` is
/// what commands call: `read`, then the rules every import shares (`ImportSecrets.apply`: no
/// credential written as given, no header a target file cannot send).
package protocol Importer {
    associatedtype Options
    var options: Options { get }
    /// How the input holds its values, for warnings: "recorded" (a HAR), "given".
    static var source: String { get }
    /// The input as drafts and warnings, values as the input gives them.
    func read(_ input: ImportInput) throws(APIError) -> ImportResult
}

extension Importer {
    package static var source: String { "given" }

    /// `read`, then the shared rules over every draft.
    package func run(_ input: ImportInput) throws(APIError) -> ImportResult {
        var result = try read(input)
        result.finish(file: input.name, source: Self.source)
        return result
    }
}

extension ImportResult {
    /// The shared rules over every draft (the webhooks' too), their warnings added.
    mutating func finish(file: String, source: String) {
        var notes: [String] = []
        for i in drafts.indices { notes += ImportSecrets.apply(to: &drafts[i], source: source) }
        if var hooks = webhooks {
            notes += ImportSecrets.apply(to: &hooks, source: source)
            webhooks = hooks
        }
        warnings += notes.map { ImportWarning(file: file, mark: nil, message: $0) }
    }
}

/// Items of an input → one group per origin (a service file each), origins in the order they
/// first appear, items in theirs: the one grouping of every importer that writes a file per origin.
enum ImportOrigins {
    static func group<Item>(_ items: [Item], by origin: (Item) -> String) -> [(origin: String, items: [Item])] {
        var groups: [(origin: String, items: [Item])] = []
        var index: [String: Int] = [:]
        for item in items {
            let o = origin(item)
            if let i = index[o] {
                groups[i].items.append(item)
            } else {
                index[o] = groups.count
                groups.append((o, [item]))
            }
        }
        return groups
    }
}
