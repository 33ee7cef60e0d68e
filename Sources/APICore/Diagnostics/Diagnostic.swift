/// One problem in the user's input: what, where, and how to fix it.
/// Position (`file`, `mark`) and kind (`message`) are separate fields; `DiagnosticRenderer` draws them.
public struct Diagnostic: Error, Sendable, Equatable {
    public struct Note: Sendable, Equatable {
        public var message: String
        public var mark: Mark
    }

    /// The file as the user named it (nil for command-line input).
    public var file: String?
    public var mark: Mark?
    public var message: String
    /// A suggestion such as "did you mean 'path'?".
    public var hint: String?
    /// Other places worth showing (where a duplicate key was first defined).
    public var notes: [Note]
    /// A warning: worth saying, but the file still loads and runs.
    public var isWarning = false

    public init(file: String?, mark: Mark?, message: String, hint: String? = nil, notes: [Note] = []) {
        self.file = file
        self.mark = mark
        self.message = message
        self.hint = hint
        self.notes = notes
    }

    /// A YAML layer error, placed in `file`.
    public init(file: String, _ error: YAMLError) {
        self.init(file: file, mark: error.mark, message: error.message, hint: error.hint,
                  notes: error.note.map { [Note(message: $0.message, mark: $0.mark)] } ?? [])
    }
}
