/// A YAML document that could not be read: libyaml's own problem text, or a limit this layer enforces.
package struct YAMLError: Error, Sendable, Equatable {
    package enum Kind: Sendable, Equatable {
        /// libyaml rejected the text (syntax, encoding).
        case syntax
        /// The same key twice in one mapping.
        case duplicateKey
        /// `*name` without an earlier `&name`.
        case unknownAlias
        /// Nesting or alias expansion beyond the limits (see `Parser.Limits`).
        case limit
        /// `<<` whose value is not a mapping or a list of mappings.
        case badMerge
        /// More than one document in a file.
        case multipleDocuments
    }

    package var kind: Kind
    package var message: String
    package var mark: Mark
    /// A second place worth naming (the first occurrence of a duplicate key, libyaml's context).
    package var note: (message: String, mark: Mark)?
    /// What a syntax error usually means and how to fix it, in the user's words (see `SyntaxHint`).
    package var hint: String?

    package init(_ kind: Kind, _ message: String, at mark: Mark, note: (String, Mark)? = nil, hint: String? = nil) {
        self.kind = kind
        self.message = message
        self.mark = mark
        self.note = note.map { (message: $0.0, mark: $0.1) }
        self.hint = hint
    }

    package static func == (a: YAMLError, b: YAMLError) -> Bool {
        a.kind == b.kind && a.message == b.message && a.mark == b.mark
            && a.note?.message == b.note?.message && a.note?.mark == b.note?.mark && a.hint == b.hint
    }
}
