import APISupport
import APIYAML
import APIDiagnostics
import APISecrets
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `targets/apicli.yaml`, the project file: defaults, rules and environments for every service.
/// It is not a service; `Catalog` skips it.
package struct Project: Sendable {
    package static let fileNames = ["apicli.yaml", "apicli.yml"]

    package var file: String?
    package var headers: [Header] = []
    package var timeout: Double?
    package var validation: Validation?
    package var auth: Auth?
    /// Matched against `service.target`.
    package var rules: [Rule] = []
    package var environments: [Environment] = []
    /// `load: { thresholds: … }`: thresholds over the whole of an `apicli load` run.
    package var load: LoadSettings? = nil
    /// `secrets: { NAME: { command: [argv…], timeout? } }`: `${NAME}` from a command.
    package var secrets: [String: SecretCommand] = [:]
    /// `cookies: { jar: FILE }`: the Netscape cookie file `call` and `record` read and write when
    /// no `--cookie-jar` is given (path relative to the targets folder); `check` and `load` keep
    /// their per-run jar unless `--cookie-jar` asks.
    package var cookieJar: String? = nil

    package init() {}

    /// The project file of `directory`, or an empty project when there is none.
    package static func load(directory: String) throws(APIError) -> Project {
        for name in fileNames {
            let path = Path.join(directory, name)
            // Most folders have no project file: a `stat` says so (FoundationEssentials' attempt to read a
            // missing file costs far more); a regular file is read as target files are.
            guard Path.exists(path) else { continue }
            guard Path.isRegularFile(path) || Path.isDirectory(path) else {  // not opened: a named pipe would wait for a writer
                throw .invalid(Diagnostic(file: path, mark: nil, message: "cannot read the project file: \(TargetFile.notRegularFile)",
                                          hint: "make \(name) a regular file, or move it away"))
            }
            guard let bytes = TargetFile.regularFileBytes(path) ?? FileManager.default.contents(atPath: path).map({ [UInt8]($0) })
            else { continue }
            return try decode(bytes, file: path)
        }
        return Project()
    }

    package static func decode(_ bytes: [UInt8], file: String) throws(APIError) -> Project {
        let root: Node?
        do {
            root = try YAMLParser.parse(bytes)
        } catch {
            throw .invalid(Diagnostic(file: file, error))
        }
        var project = Project()
        project.file = file
        guard let root, !root.isNull else { return project }
        var decoder = ServiceDecoder(file: file)
        decoder.project(root, into: &project)
        if decoder.reader.diagnostics.isEmpty { return project }
        throw .invalidInput(decoder.reader.diagnostics)
    }
}

extension ServiceDecoder {
    mutating func project(_ root: Node, into project: inout Project) {
        guard let entries = reader.mapping(root, "apicli.yaml", known: TargetFile.Keys.project) else { return }
        for e in entries {
            switch MappingKey(e.key) {
            case "headers": project.headers = headers(e.value, "the project's headers") ?? []
            case "timeout": project.timeout = reader.duration(e.value, "timeout", allowZero: false)
            case "validate": project.validation = validation(e.value)
            case "auth": project.auth = auth(e.value, "the project")
            case "rules": project.rules = rules(e.value)
            case "environments": project.environments = environments(e.value)
            case "load": project.load = load(e.value, target: nil)
            case "secrets": project.secrets = secretCommands(e.value)
            case "cookies": project.cookieJar = cookieJar(e.value)
            default: break  // doc
            }
        }
    }
}

extension ServiceDecoder {
    /// `cookies: { jar: FILE }`: the path, relative to the targets folder.
    mutating func cookieJar(_ node: Node) -> String? {
        guard let fields = reader.mapping(node, "cookies", known: TargetFile.Keys.projectCookies) else { return nil }
        guard let jar = fields.first(where: { $0.key == "jar" }), let t = reader.text(jar.value, "cookies jar") else {
            if !fields.contains(where: { $0.key == "jar" }) {
                reader.error("cookies: needs jar: (a Netscape cookie file)", at: node.mark, hint: "write cookies: { jar: cookies.txt }")
            }
            return nil
        }
        guard !t.text.isEmpty else {
            reader.error("cookies jar is empty", at: jar.value.mark, hint: "write cookies: { jar: cookies.txt }")
            return nil
        }
        return t.text.hasPrefix("/") ? t.text : Path.join(folder, t.text)
    }
}

extension ServiceDecoder {
    /// `secrets: { NAME: { command: [program, arg…], timeout: 10s } }`.
    mutating func secretCommands(_ node: Node) -> [String: SecretCommand] {
        guard let entries = reader.mapping(node, "secrets") else { return [:] }
        var out: [String: SecretCommand] = [:]
        for e in entries {
            guard !e.key.isEmpty, e.key.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }) else {
                reader.error("'\(e.key)' in secrets: is not a variable name", at: e.value.mark,
                             hint: "names are letters, digits and '_', as in ${API_TOKEN}")
                continue
            }
            guard let fields = reader.mapping(e.value, "secret \(e.key)", known: TargetFile.Keys.secret) else { continue }
            var argv: [String]? = nil
            var timeout = SecretCommand.defaultTimeout
            for f in fields {
                if f.key == "timeout" {
                    timeout = reader.duration(f.value, "timeout of secret \(e.key)", allowZero: false) ?? timeout
                } else if let items = f.value.items, !items.isEmpty {
                    let texts = items.compactMap { reader.text($0, "an argument of secret \(e.key)") }
                    if texts.count == items.count { argv = texts.map(\.text) }
                } else {
                    reader.error("command of secret \(e.key) is a list: the program, then each argument", at: f.value.mark,
                                 hint: "write command: [op, read, \"op://vault/api/token\"] (no shell runs it)")
                }
            }
            guard let argv else {
                if !fields.contains(where: { $0.key == "command" }) {
                    reader.error("secret \(e.key) needs command:", at: e.value.mark, hint: "write \(e.key): { command: [pass, show, api/token] }")
                }
                continue
            }
            if timeout > 600 {
                reader.error("timeout of secret \(e.key) is over 10 minutes", at: e.value.mark, hint: "write timeout: 30s or less")
                continue
            }
            out[e.key] = SecretCommand(argv: argv, timeout: timeout, file: reader.file, mark: e.value.mark)
        }
        return out
    }
}
