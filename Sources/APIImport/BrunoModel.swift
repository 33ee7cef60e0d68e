import APISupport
import APIYAML
/// A Bruno collection as both its formats give it (`.bru` files: `BrunoBru.swift`; OpenCollection
/// YAML: `BrunoOpenCollection.swift`), before it is mapped (`BrunoMapper.swift`).
struct BrunoCollection {
    var name: String?
    var root = BrunoFolder(name: "")
    var environments: [BrunoEnvironment] = []
    /// Things of the collection that are not imported, with where they are.
    var warnings: [ImportWarning] = []
}

/// Where something stands in the input: the file and the line (nil: the whole file).
struct BrunoPlace {
    var file: String
    var mark: Mark?

    init(_ file: String, _ mark: Mark?) {
        self.file = file
        self.mark = mark
    }

    init(_ file: String, line: Int) {
        self.init(file, Mark(line: line, column: 1))
    }
}

/// The collection or a folder: what its requests inherit, its requests and subfolders.
struct BrunoFolder {
    var name: String
    var seq: Double = .infinity
    var headers: [BrunoEntry] = []
    /// nil: inherit.
    var auth: BrunoAuth?
    var vars: [BrunoEntry] = []
    /// The collection's `docs`: comment lines at the top of its files.
    var docs: String?
    /// Scripts and tests of the folder: not run.
    var skipped: [(what: String, place: BrunoPlace)] = []
    var requests: [BrunoRequest] = []
    var folders: [BrunoFolder] = []
}

struct BrunoEntry {
    var name: String
    var value: String
    var place: BrunoPlace
}

struct BrunoAuth {
    /// `none`, `basic`, `bearer`, `digest`, `apikey`, `oauth2`, `awsv4`, or another (not imported).
    var mode: String
    /// Normalized names: `username`, `password`, `token`, `key`, `value`, `placement` (`header`,
    /// `query`), `grant`, `tokenURL`, `clientId`, `scope`, `accessKeyId`, `secretAccessKey`,
    /// `sessionToken`, `service`, `region`.
    var fields: [String: String] = [:]
    var place: BrunoPlace
}

enum BrunoBody {
    case none
    /// `json`, `text`, `xml`, `sparql`: the text.
    case text(kind: String, String)
    case form([BrunoEntry])
    case multipart([(entry: BrunoEntry, file: String?)])
    case graphql(query: String, variables: String?)
    case file(String)
}

struct BrunoRequest {
    var name: String
    var seq: Double = .infinity
    var place: BrunoPlace
    /// `http`, `graphql`; others (`grpc`, `ws`) are not imported.
    var kind = "http"
    var method = "GET"
    var url = ""
    var query: [BrunoEntry] = []
    var pathParams: [String: String] = [:]
    var headers: [BrunoEntry] = []
    var body = BrunoBody.none
    var bodyPlace: BrunoPlace?
    /// nil: inherit.
    var auth: BrunoAuth?
    var vars: [BrunoEntry] = []
    var asserts: [BrunoEntry] = []
    var skipped: [(what: String, place: BrunoPlace)] = []
    var followRedirects: Bool?
    /// Seconds, as target-file text.
    var timeout: String?
    var docs: String?
    /// Saved responses (OpenCollection `examples`): name, status, headers, body, whether JSON.
    var examples: [(name: String, status: Int, headers: [(String, String)], body: String?, json: Bool)] = []
}

extension BrunoRequest {
    /// A request setting (`.bru` `settings { }`, OpenCollection `settings:`): `followRedirects: false`
    /// and `maxRedirects: 0` → `followRedirects: false`, `timeout` (ms, 0: none) → `timeout:`;
    /// `encodeUrl: false` (the URL sent as typed) and another redirect limit are warnings.
    mutating func setting(_ key: String, _ value: String, at place: BrunoPlace) {
        switch (key, value) {
        case ("followRedirects", "false"), ("maxRedirects", "0"):
            followRedirects = false
        case ("followRedirects", _), ("encodeUrl", "true"), ("maxRedirects", "5"), ("timeout", "0"):
            return
        case ("timeout", _):
            guard let ms = Int(value), ms > 0, ms <= 86_400_000 else {
                skipped.append(("the timeout '\(value)' (milliseconds, 1 to 86400000)", place))
                return
            }
            timeout = ms % 1000 == 0 ? String(ms / 1000) : String(Double(ms) / 1000)
        case ("encodeUrl", "false"):
            skipped.append(("the setting encodeUrl: false (apicli percent-encodes what a URL cannot carry)", place))
        default:
            skipped.append(("the setting \(key): \(value)", place))
        }
    }
}

struct BrunoEnvironment {
    var name: String
    var values: [String: String] = [:]
    var secrets: Set<String> = []
}

extension BrunoFolder {
    /// Fills this folder from `dir` on disk, as both formats lay a collection out: each file (not
    /// hidden, not `node_modules`) handed to `file` (path, name, depth, this folder, warnings),
    /// each subfolder read the same way into a subfolder (`environments/` at the top left out;
    /// folders deeper than `BrunoBru.maxDepth` a warning).
    mutating func read(_ dir: String, depth: Int, files: ImportFolder, warnings: inout [ImportWarning],
                       file: (String, String, Int, inout BrunoFolder, inout [ImportWarning]) -> Void) {
        for name in (files.list(dir) ?? []).sorted() {
            let path = Path.join(dir, name)
            if name.hasPrefix(".") || name == "node_modules" { continue }
            guard files.list(path) != nil else {
                file(path, name, depth, &self, &warnings)
                continue
            }
            if depth == 0, name == "environments" { continue }
            guard depth < BrunoBru.maxDepth else {
                warnings.append(ImportWarning(file: path, mark: nil, message: "folders nested deeper than \(BrunoBru.maxDepth) are not imported"))
                continue
            }
            var sub = BrunoFolder(name: name)
            sub.read(path, depth: depth + 1, files: files, warnings: &warnings, file: file)
            if !sub.requests.isEmpty || !sub.folders.isEmpty { folders.append(sub) }
        }
    }

    /// Sorted as Bruno shows them: by `seq`; without one, as read (files by name, `items:` in order).
    mutating func sort() {
        requests = requests.enumerated().sorted { ($0.element.seq, $0.offset) < ($1.element.seq, $1.offset) }.map(\.element)
        folders = folders.enumerated().sorted { ($0.element.seq, $0.offset) < ($1.element.seq, $1.offset) }.map(\.element)
        for i in folders.indices { folders[i].sort() }
    }
}
