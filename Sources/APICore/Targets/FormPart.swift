/// One part of a `multipart:` task, as declared: a value (which may hold `{params}`) or a file.
public struct FormPart: Sendable {
    public enum Content: Sendable {
        case value(Template)
        /// Absolute path (resolved against the target file's folder).
        case file(String)
    }

    public var name: String
    public var content: Content
    public var filename: String?
    public var type: String?
    /// Where the part is declared; nil for `-F`.
    public var mark: Mark?

    public init(name: String, content: Content, filename: String? = nil, type: String? = nil, mark: Mark? = nil) {
        self.name = name
        self.content = content
        self.filename = filename
        self.type = type
        self.mark = mark
    }
}
