import APIYAML
/// One part of a `multipart:` task, as declared: a value (which may hold `{params}`) or a file.
package struct FormPart: Sendable {
    package enum Content: Sendable {
        case value(Template)
        /// Absolute path (resolved against the target file's folder).
        case file(String)
    }

    package var name: String
    package var content: Content
    package var filename: String?
    package var type: String?
    /// Where the part is declared; nil for `-F`.
    package var mark: Mark?

    package init(name: String, content: Content, filename: String? = nil, type: String? = nil, mark: Mark? = nil) {
        self.name = name
        self.content = content
        self.filename = filename
        self.type = type
        self.mark = mark
    }
}
