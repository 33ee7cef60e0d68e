import APIYAML
/// Something of the input an import could not map: printed as `spec.yaml:120:9: warning: …`.
package struct ImportWarning: Sendable, Equatable, CustomStringConvertible {
    /// The file as the user named it (or as a `$ref` named it, relative to the spec).
    package var file: String
    package var mark: Mark?
    package var message: String

    package init(file: String, mark: Mark?, message: String) {
        self.file = file
        self.mark = mark
        self.message = message
    }

    package var description: String {
        let place = mark.map { "\(file):\($0.line):\($0.column)" } ?? file
        return "\(place): warning: \(message)"
    }
}
