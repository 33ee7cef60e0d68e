import APIYAML
import APISecrets
import APITargets
/// Shell variables in a curl command (`"$DO_API_TOKEN"`, `${HOST}`): the shell puts their values
/// in when curl runs; the import cannot see them, so each becomes a `${NAME}` reference read from
/// the environment when apicli calls, with a warning; never the literal text. A credential (a
/// secret-looking name, or a variable in a credential header or in `auth:`) goes through
/// `ImportSecrets` like any credential: `${SERVICE_NAME}`, so the file cannot send one of the
/// user's own variables to the command's host.
struct CurlVariables {
    var secrets: ImportSecrets
    var plain: [String] = []

    init(service: String) {
        secrets = ImportSecrets(service: service)
    }

    /// Replaces every `ShellWords` marker in `draft`; the warnings say what was written.
    static func resolve(_ draft: inout ServiceDraft) -> [String] {
        var v = CurlVariables(service: draft.service)
        draft.baseURL = v.text(draft.baseURL, credential: false, what: "")
        draft.tls = draft.tls.map { v.value($0, credential: false, what: "") }
        for i in draft.targets.indices {
            var t = draft.targets[i]
            let what = "target \(t.name)"
            t.path = v.text(t.path, credential: false, what: what)
            t.headers = t.headers.map { entry in
                guard case .pair(let name, let value) = entry else { return entry }
                return .pair(name, v.value(value, credential: Credentials.isHeader(name), what: "the \(name) header of \(t.name)"))
            }
            t.task = v.entries(t.task, credential: false, what: what)
            t.auth = t.auth.map { v.value($0, credential: true, what: "the auth of \(t.name)") }
            t.timeout = t.timeout.map { v.text($0, credential: false, what: what) }
            draft.targets[i] = t
        }
        let plain = v.plain.map {
            "the shell variable $\($0) in the command is written as ${\($0)}: apicli reads \($0) from the environment when it calls"
        }
        return plain + v.secrets.warnings
    }

    private mutating func text(_ s: String, credential: Bool, what: String) -> String {
        ShellWords.replacingVariables(s) { name in
            if credential || Secrets.isSecretName(name) || Credentials.isSecretName(name) {
                return secrets.reference(name, "the shell variable $\(name) (in \(what))")
            }
            if !plain.contains(name) { plain.append(name) }
            return "${\(name)}"
        }
    }

    private mutating func value(_ v: YAMLOut, credential: Bool, what: String) -> YAMLOut {
        switch v {
        case .string(let s): return .string(text(s, credential: credential, what: what))
        case .number(let s): return .number(text(s, credential: credential, what: what))
        case .list(let items): return .list(items.map { value($0, credential: credential, what: what) })
        case .map(let entries): return .map(self.entries(entries, credential: credential, what: what))
        case .blockMap(let entries): return .blockMap(self.entries(entries, credential: credential, what: what))
        default: return v
        }
    }

    private mutating func entries(_ e: [YAMLOut.Entry], credential: Bool, what: String) -> [YAMLOut.Entry] {
        e.map { entry in
            guard case .pair(let k, let x) = entry else { return entry }
            return .pair(k, value(x, credential: credential || Credentials.isSecretName(k), what: what))
        }
    }
}
