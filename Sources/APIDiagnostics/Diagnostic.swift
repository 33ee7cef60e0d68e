import APIYAML
/// One problem in the user's input: what, where, and how to fix it.
/// Position (`file`, `mark`) and kind (`message`) are separate fields; `DiagnosticRenderer` draws them.
package struct Diagnostic: Error, Sendable, Equatable {
    package struct Note: Sendable, Equatable {
        package var message: String
        package var mark: Mark
    }

    /// The file as the user named it (nil for command-line input).
    package var file: String?
    package var mark: Mark?
    package var message: String
    /// A suggestion such as "did you mean 'path'?".
    package var hint: String?
    /// Other places worth showing (where a duplicate key was first defined).
    package var notes: [Note]
    /// A warning: worth saying, but the file still loads and runs.
    package var isWarning = false

    package init(file: String?, mark: Mark?, message: String, hint: String? = nil, notes: [Note] = []) {
        self.file = file
        self.mark = mark
        self.message = message
        self.hint = hint
        self.notes = notes
    }

    /// A YAML layer error, placed in `file`.
    package init(file: String, _ error: YAMLError) {
        self.init(file: file, mark: error.mark, message: error.message, hint: error.hint,
                  notes: error.note.map { [Note(message: $0.message, mark: $0.mark)] } ?? [])
    }
}
