import APISupport
import APIDiagnostics
import APISecrets
import APITargets
import APIEndpoint
import APITransport
import APIImport
import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `apicli call URL`: a one-off request without a target file. The flags are read as the same
/// curl command would read them (`import curl`'s mapping), the request is built into a target in
/// memory, and sent through the one factory and the one send path like any target; `--save`
/// writes that target into a service file so that exploring an API turns into files `check` runs.
struct AdHocOptions {
    var method: String?
    var data: [String] = []
    var json: String?
    var save: String?

    /// `apicli call URL -X … -d … --json … --save …`: these four flags are curl's and mean something
    /// only with a URL, so they are taken out here, before argument-parser, and only then: every
    /// option argument-parser knows costs each run of `call TARGET` its reflection at start-up.
    /// With a target name they stay in, and argument-parser refuses them (exit 64). What is taken
    /// out is returned, for the call's values (`CallValues.adHoc`); none for other lines.
    static func extract(from words: inout [String]) throws -> AdHocOptions {
        guard words.first == "call", words.dropFirst().contains(where: CallValues.isURL) else { return AdHocOptions() }
        var kept: [String] = []
        var options = AdHocOptions()
        var i = 0
        while i < words.count {
            let word = words[i]
            let (flag, inline): (String, String?) = word.hasPrefix("--") && word.contains("=")
                ? (String(word[..<word.firstIndex(of: "=")!]), String(word[word.index(after: word.firstIndex(of: "=")!)...]))
                : (word, nil)
            guard ["-X", "--request", "-d", "--data", "--json", "--save"].contains(flag) else {
                kept.append(word)
                i += 1
                continue
            }
            guard let value = inline ?? (i + 1 < words.count ? words[i + 1] : nil) else {
                throw ValidationError("\(flag) needs a value")
            }
            switch flag {
            case "-X", "--request": options.method = value
            case "-d", "--data": options.data.append(value)
            case "--json": options.json = value
            default:
                let parts = value.split(separator: ".", omittingEmptySubsequences: false)
                guard parts.count == 2, parts.allSatisfy({ CurlImport.isName(String($0)) }) else {
                    throw ValidationError("--save takes service.target (letters, digits, '_' and '-'), got '\(value)'")
                }
                options.save = value
            }
            i += inline == nil ? 2 : 1
        }
        words = kept
        return options
    }

    /// The curl words for `url` and these flags (and `extra`: -H and -F when saving).
    func curlWords(_ url: String, extra: [String]) -> [String] {
        var words = ["curl", url]
        if let method { words += ["-X", method] }
        for d in data { words += ["--data", d] }
        if let json { words += ["--json", json] }
        return words + extra
    }
}

extension CallValues {
    /// Whether the argument is a URL rather than `service.target`.
    static func isURL(_ text: String) -> Bool {
        text.hasPrefix("http://") || text.hasPrefix("https://")
    }

    /// Why `text`, neither `service.target` nor an http(s) URL, looks like a URL apicli cannot
    /// call as written (`ftp://…`, `127.0.0.1:8191/get`), or nil.
    static func urlProblem(_ text: String) -> String? {
        guard !isURL(text) else { return nil }
        // Byte searches: a target's name has no '/' or ':', and every call asks.
        let bytes = Array(text.utf8)
        guard bytes.contains(UInt8(ascii: "/")) || bytes.contains(UInt8(ascii: ":")) else { return nil }
        if let colon = bytes.indices.first(where: { bytes[$0...].starts(with: "://".utf8) }) {
            return "'\(text)' is a \(String(decoding: bytes[..<colon], as: UTF8.self)) URL; apicli calls only http:// and https:// URLs"
        }
        return "'\(text)' is neither service.target nor a URL; add http:// (or https://): apicli call http://\(text)"
    }

    /// The URL's request as a target in memory (named like `import curl` names it). The command
    /// line's -H and -F reach it as they reach any target (overrides), so no secret of theirs is
    /// ever written into the target text.
    func adHocTarget(_ url: String, _ workspace: Workspace) throws(APIError) -> (Service, Target) {
        // -F sends a form as curl's -F does: a POST unless -X says otherwise (its parts reach the
        // target as overrides, not through the curl words).
        let post = adHoc.method == nil && !form.forms.isEmpty ? ["-X", "POST"] : []
        let result = try CurlImport(options: .init(cwd: FileManager.default.currentDirectoryPath))
            .read(words: adHoc.curlWords(url, extra: post))
        let draft = result.draft
        let service: Service
        do {
            service = try TargetFile.decode(Array(draft.text.utf8), file: "(command line)", defaultName: draft.service)
        } catch {
            // The target text is apicli's own, not the user's: its lines and columns mean nothing to
            // them, so the problem is named for the command line, without a made-up position.
            guard case .invalidInput(let diagnostics) = error else { throw error }
            throw .invalidInput(diagnostics.map { d in
                Diagnostic(file: nil, mark: nil, message: "the request of `call \(url)`: " + d.message, hint: d.hint)
            })
        }
        guard let target = service.targets.first else {
            throw .invalid(Diagnostic(file: nil, mark: nil, message: "cannot make a request of \(url)"))
        }
        return (service, target)
    }

    /// `--save service.target`: the request with its -H and -F, written through `import curl`'s
    /// mapping and the importers' one secret policy (every credential a `${SERVICE_…}`, never the secret) into
    /// targets/SERVICE.yaml: below its targets when its baseURL holds the URL, else as a new file.
    func saveAdHoc(_ url: String, as name: String, _ workspace: Workspace, _ console: Console) throws(APIError) {
        let parts = name.split(separator: ".").map(String.init)  // checked by `extract` (exit 64)
        var extra: [String] = []
        for h in request.headers { extra += ["-H", h] }
        for f in form.forms { extra += ["-F", f] }
        let result = try CurlImport(options: .init(service: parts[0], name: parts[1], cwd: FileManager.default.currentDirectoryPath))
            .run(words: adHoc.curlWords(url, extra: extra))
        ImportIO.warn(result.warnings)
        var draft = result.draft
        draft.header = ["Saved by apicli call --save."]
        let file = Path.join(workspace.options.directory, parts[0] + ".yaml")
        let text: String
        let isNew = !Path.exists(file)
        if !isNew {
            let old = String(decoding: try ImportIO.read(file), as: UTF8.self)
            text = try TargetAppend.append(draft.targets[0], base: draft.baseURL, to: old, file: file)
        } else {
            text = draft.text
            _ = try TargetFile.decode(Array(text.utf8), file: file, defaultName: parts[0])  // never write a file that does not load
        }
        try ImportIO.write(text, to: file, force: true)
        if !quiet { console.err("apicli: saved \(name) in \(file)\n") }
        if isNew { _ = try InitFiles.schema(.targets, beside: file) }  // the schema the new file names
    }
}
