import APIDiagnostics
import APITargets
/// `apicli import curl`: a curl command → a target (in a service file of its own, or appended to
/// one). The inverse of `apicli call --curl`: method, URL (base URL, path, `task: query`), headers,
/// bodies (`json:` when the data is JSON, `form:` for form data, `body:` otherwise), `-F` parts,
/// `-u`, `--cacert`/`-k` and `--max-time`.
package enum CurlImport {
    package struct Options: Sendable {
        package var service: String?
        package var name: String?
        /// The folder relative file names in the command are taken from.
        package var cwd: String

        package init(service: String? = nil, name: String? = nil, cwd: String) {
            self.service = service
            self.name = name
            self.cwd = cwd
        }
    }


    package static func run(_ command: String, options: Options) throws(APIError) -> ImportResult {
        let words: [String]
        do {
            words = try ShellWords.split(command)
        } catch {
            throw .invalid(Diagnostic(file: nil, mark: nil, message: "the curl command has an unterminated \(error.quote) quote"))
        }
        return try run(words: words, options: options)
    }

    /// A curl command already split into words (`curl` first): what `apicli call URL -X … -H … -d …`
    /// builds from its own flags, so an ad-hoc call means what the same curl command means.
    package static func run(words: [String], options: Options) throws(APIError) -> ImportResult {
        var parser = CurlParser(cwd: options.cwd)
        try parser.parse(words)
        var mapper = CurlMapper(request: parser.request)
        let draft = try mapper.draft(service: options.service, name: options.name)
        let warnings = (parser.warnings + mapper.warnings).map { ImportWarning(file: "curl", mark: nil, message: $0) }
        return ImportResult(draft: draft, warnings: warnings)
    }
}

extension CurlImport {
    /// Service and target names: letters, digits, '_' and '-'.
    package static func isName(_ s: String) -> Bool { TargetFile.isName(s) }
}
