import APIDiagnostics
import APITargets

extension Workspace {
    /// `selection` with one target per row (`RowSet`): each target's `each:` rows, or, with
    /// `data` (`--data FILE`, a path from the working directory), that file's rows for every
    /// selected target. What `check`, `call` and `load` send; `-p` values still win over a row's.
    package func rows(_ selection: [(Service, Target)], data: String?) throws(APIError) -> [(Service, Target)] {
        try RowSet.expand(selection, data: try dataRows(data), folder: options.directory, given: Set(options.overrides.params.keys))
    }

    /// For each target of `selection`, its rows' targets (nil: it has none), as `rows` makes them:
    /// what `load` draws from.
    package func rowGroups(_ selection: [(Service, Target)], data: String?) throws(APIError) -> [[Target]?] {
        try RowSet.groups(selection, data: try dataRows(data), folder: options.directory, given: Set(options.overrides.params.keys))
    }

    /// The rows of `target`, unexpanded: `data`'s, else its `each:`'s; nil when it has none.
    package func rowData(of target: Target, in service: Service, data: String?) throws(APIError) -> [DataRow]? {
        if let data { return try DataFile.read(data) }
        var files = DataFile.Cache()
        return try RowSet.rows(of: target, in: service, folder: options.directory, files: &files)
    }

    /// `target` once per row of `rows` (`RowSet.expand`, `-p` giving what a row lacks).
    package func rows(of target: Target, _ rows: [DataRow]) throws(APIError) -> [Target] {
        try RowSet.expand(target, rows: rows, given: Set(options.overrides.params.keys))
    }

    private func dataRows(_ data: String?) throws(APIError) -> [DataRow]? {
        guard let data else { return nil }
        return try DataFile.read(data)
    }
}
