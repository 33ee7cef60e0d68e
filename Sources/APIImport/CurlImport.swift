import APIDiagnostics
import APITargets
/// `apicli import curl`: a curl command → a target (in a service file of its own, or appended to
/// one). The inverse of `apicli call --curl`: method, URL (base URL, path, `task: query`), headers,
/// bodies (`json:` when the data is JSON, `form:` for form data, `body:` otherwise), `-F` parts,
/// `-u`, `--cacert`/`-k` and `--max-time`.
package struct CurlImport: Importer {
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


    package var options: Options

    package init(options: Options) {
        self.options = options
    }

    /// The command's text (`input.name` is `curl`).
    package func read(_ input: ImportInput) throws(APIError) -> ImportResult {
        let words: [String]
        do {
            words = try ShellWords.split(input.text)
        } catch {
            throw .invalid(Diagnostic(file: nil, mark: nil, message: error.message))
        }
        return try read(words: words)
    }

    /// A curl command already split into words (`curl` first): what `apicli call URL -X … -H … -d …`
    /// builds from its own flags, so an ad-hoc call means what the same curl command means. The
    /// request as given: an ad-hoc call sends it so; `run(words:)` is what writes a file.
    package func read(words: [String]) throws(APIError) -> ImportResult {
        var parser = CurlParser(cwd: options.cwd)
        try parser.parse(words)
        var mapper = CurlMapper(request: parser.request)
        var draft = try mapper.draft(service: options.service, name: options.name)
        let variables = CurlVariables.resolve(&draft)
        let warnings = (parser.warnings + mapper.warnings + variables).map { ImportWarning(file: Self.inputName, mark: nil, message: $0) }
        return ImportResult(draft: draft, warnings: warnings)
    }

    /// `read(words:)` and the shared rules (`call --save`).
    package func run(words: [String]) throws(APIError) -> ImportResult {
        var result = try read(words: words)
        result.finish(file: Self.inputName, source: Self.source)
        return result
    }

    /// A command's name in warnings.
    package static let inputName = "curl"
}

extension CurlImport {
    /// Service and target names: letters, digits, '_' and '-'.
    package static func isName(_ s: String) -> Bool { TargetFile.isName(s) }
}
