import APIYAML
/// What an importer made: a service draft per origin (one for `openapi` and `curl`), the warnings
/// for the user, and the input files it read (a description and the files its `$ref`s name).
package struct ImportResult: Sendable {
    package var drafts: [ServiceDraft]
    package var warnings: [ImportWarning]
    package var files: [String]
    /// `import openapi`: the description's `webhooks` as a service of their own (see
    /// `OpenAPIWebhooks.swift`), written beside the paths' file; nil when it has none.
    package var webhooks: ServiceDraft?
    /// `import openapi` of a Swagger 2.0 description: each file read (named as in `files`) as the
    /// OpenAPI 3.0 document it was converted to, for the `expect: schema:` copy.
    package var converted: [String: Node] = [:]

    package init(drafts: [ServiceDraft], warnings: [ImportWarning], files: [String] = [], webhooks: ServiceDraft? = nil) {
        self.drafts = drafts
        self.warnings = warnings
        self.files = files
        self.webhooks = webhooks
    }

    /// A single-service import (`openapi`, `curl`).
    package init(draft: ServiceDraft, warnings: [ImportWarning], files: [String] = []) {
        self.init(drafts: [draft], warnings: warnings, files: files)
    }

    /// The service of a single-service import (made by `init(draft:)`).
    package var draft: ServiceDraft { drafts[0] }
}
