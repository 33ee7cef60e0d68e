/// The JSON Schema files editors read target files with (yaml-language-server's modeline): the
/// files apicli writes (`init`, `import …`, `call --save`) name the schema beside them, which
/// `apicli schema` prints and `init` and the importers write when the folder has none.
package enum EditorSchema: String, Sendable, CaseIterable {
    /// A service file (`targets/NAME.yaml`).
    case targets
    /// The project file (`targets/apicli.yaml`).
    case project

    /// The schema's file name, beside the target files: hidden, so `ls` and `validate targets/*`
    /// see only the target files.
    package var fileName: String { ".apicli-\(rawValue).schema.json" }

    /// The first line of a file apicli writes: a relative path, which yaml-language-server resolves
    /// against the YAML file's own folder (no network, and the schema of the apicli that wrote it).
    package var modeline: String { "# yaml-language-server: $schema=\(fileName)" }
}

extension EditorSchema {
    /// The schema as JSON text (draft 2020-12). One document holds both file kinds in its `$defs`:
    /// the project's is the same text with the root naming `$defs/project`.
    package var text: String {
        switch self {
        case .targets: return Self.targetsText
        case .project:
            return Self.targetsText
                .replacing(##""title": "apicli service file""##, with: ##""title": "apicli project file""##, maxReplacements: 1)
                .replacing(##""$ref": "#/$defs/service""##, with: ##""$ref": "#/$defs/project""##, maxReplacements: 1)
        }
    }
}
