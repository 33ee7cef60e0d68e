/// Something of the input an import could not map: printed as `spec.yaml:120:9: warning: …`.
public struct ImportWarning: Sendable, Equatable, CustomStringConvertible {
    /// The file as the user named it (or as a `$ref` named it, relative to the spec).
    public var file: String
    public var mark: Mark?
    public var message: String

    public init(file: String, mark: Mark?, message: String) {
        self.file = file
        self.mark = mark
        self.message = message
    }

    public var description: String {
        let place = mark.map { "\(file):\($0.line):\($0.column)" } ?? file
        return "\(place): warning: \(message)"
    }
}
