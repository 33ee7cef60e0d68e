import APISecrets
import APIEndpoint
import APITransport

/// What `record` refuses to write, and which credentials it never writes: the policy of recording
/// one exchange, apart from how the sample is written (`Recorder`).
extension RecordedSample {
    /// Why `response` cannot become a sample at all, or nil: a `messages:` sample holds text
    /// messages only, so a conversation with a binary message is not recorded.
    package static func unrecordable(_ response: Response) -> String? {
        guard let binary = response.messages?.first(where: \.binary) else { return nil }
        return "a binary message came (\(binary.data.count) bytes); a messages: sample holds text messages only"
    }
}

extension RecordedSample.Options {
    /// `masks` and `keepHeaders` as asked, and the secrets of a request sent in `workspace`:
    /// every secret `${VAR}` (by its name, `Secrets.isSecretName`) that has a value, written back as
    /// the reference; and what went out as a credential, never written: the values of the request's
    /// credential headers (`Redactor.credentialHeaders`: an OAuth2 token included) and every secret
    /// value the run collected (a captured one included).
    package init(masks: [String] = [], keepHeaders: [String] = [], workspace: Workspace, sent request: PreparedRequest) {
        let secrets = workspace.variables.filter { Secrets.isSecretName($0.key) && !$0.value.isEmpty }
            .map { (name: $0.key, value: $0.value) }
        let credentials = request.headers.filter { Redactor.credentialHeaders.contains($0.name.lowercased()) }.map(\.value)
            + workspace.secretValues
        self.init(masks: masks, keepHeaders: keepHeaders, secrets: secrets, credentials: credentials)
    }
}
