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

    public init(file: String?, mark: Mark?, message: String, hint: String? = nil, notes: [Note] = []) {
        self.file = file
        self.mark = mark
        self.message = message
        self.hint = hint
        self.notes = notes
    }

    /// A YAML layer error, placed in `file`.
    public init(file: String, _ error: YAMLError) {
        self.init(file: file, mark: error.mark, message: error.message,
                  notes: error.note.map { [Note(message: $0.message, mark: $0.mark)] } ?? [])
    }
}

/// Every failure the core reports; the executable maps each case to a documented exit code.
public enum APIError: Error, Sendable, Equatable {
    /// Bad target files, unknown targets, unresolved placeholders or variables (exit 2).
    case invalidInput([Diagnostic])
    /// The request did not get a response: refused, DNS, TLS, reset (exit 3).
    case network(String)
    /// No response within the timeout, in seconds (exit 4).
    case timedOut(Double)
    /// A local file could not be written (exit 5).
    case output(String)

    public static func invalid(_ d: Diagnostic) -> APIError { .invalidInput([d]) }
}
