import APIDiagnostics
import APITargets

extension Workspace {
    /// `selection` with one target per row (`RowSet`): each target's `each:` rows, or, with
    /// `data` (`--data FILE`, a path from the working directory), that file's rows for every
    /// selected target. What `check`, `call` and `load` send; `-p` values still win over a row's.
    package func rows(_ selection: [(Service, Target)], data: String?) throws(APIError) -> [(Service, Target)] {
        var rows: [DataRow]?
        if let data { rows = try DataFile.read(data) }
        return try RowSet.expand(selection, data: rows, folder: options.directory, given: Set(options.overrides.params.keys))
    }
}
