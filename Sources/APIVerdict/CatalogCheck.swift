import APIYAML
import APIDiagnostics
import APITargets
import APIEndpoint

/// `apicli validate`: every problem of a set of target files, found without sending anything:
/// loading (each file read once), `needs:` that name nothing or go round, files that are not
/// there, rows (`each:`) that cannot be read, and every sample judged as `check --stub` judges it
/// (`SampleCheck`); one per place.
package enum CatalogCheck {
    /// The services of `files` and their problems. `trees`: the files' YAML trees, kept when not nil.
    package static func run(files: [String], workspace: Workspace, keeping trees: inout [Node]?)
        -> (services: [Service], problems: [Diagnostic]) {
        let (services, problems) = Catalog.loadAll(files: files, keeping: &trees)
        return (services, unique(problems + self.problems(of: Catalog(services: services), workspace: workspace)))
    }

    /// The problems of services that loaded: `needs:` that name nothing or go round, files that
    /// are not there, samples that break their expectations; one per place.
    package static func problems(of catalog: Catalog, workspace: Workspace) -> [Diagnostic] {
        var problems = FlowGraph.problems(catalog)
        for service in catalog.services {
            problems += FileCheck.missing(in: service)
            // Samples of a target with rows are judged with its first row (every row's problems reported).
            let (judged, rowProblems) = RowSet.firstRows(service, folder: workspace.options.directory)
            problems += rowProblems
            problems += SampleCheck.diagnostics(judged, workspace: workspace)
        }
        return unique(problems)
    }

    /// One diagnostic per place: a missing sample file is found by the file check and by the stub.
    static func unique(_ problems: [Diagnostic]) -> [Diagnostic] {
        var seen = Set<String>()
        return problems.filter { d in
            guard let file = d.file, let mark = d.mark else { return true }
            return seen.insert("\(file):\(mark.line):\(mark.column)").inserted
        }
    }
}
