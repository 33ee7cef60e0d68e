import APISupport
import APIDiagnostics
import APIYAML
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The files an import writes, decided before any is written: each draft and its path (`-`:
/// standard output), and the warnings the decisions add. A file that exists is refused (exit 5)
/// unless `force`, so a refusal leaves the folder as it was. The executable writes and reports.
package struct ImportPlan {
    package struct Write {
        package var draft: ServiceDraft
        package var path: String
    }

    package var writes: [Write] = []
    package var warnings: [ImportWarning] = []

    /// One file per draft, `DIR/SERVICE.yaml` (postman, insomnia, har).
    package static func files(_ drafts: [ServiceDraft], in dir: String, force: Bool) throws(APIError) -> ImportPlan {
        var plan = ImportPlan()
        for draft in drafts { try plan.add(draft, Path.join(dir, "\(draft.service).yaml"), force: force) }
        return plan
    }

    /// Adds a write; exit 5 when the file exists and not `force`.
    mutating func add(_ draft: ServiceDraft, _ path: String, force: Bool) throws(APIError) {
        if !force, path != "-", Path.exists(path) { throw .output("\(path) already exists; pass --force to replace it") }
        writes.append(Write(draft: draft, path: path))
    }
}

extension OpenAPIImport {
    /// `import openapi`'s files: the paths' (`output`, else `DIR/SERVICE.yaml`) and the webhooks'
    /// beside it (`SERVICE-webhooks.yaml`; a description of webhooks only writes those to the
    /// paths' place when `output` names it). The paths' targets get `expect: { schema: }`
    /// references to the description, placed (or copied) where the target file can name it;
    /// none on standard output.
    package func plan(_ result: ImportResult, spec: String, output: String?, directory: String,
                      force: Bool) throws(APIError) -> ImportPlan {
        var plan = ImportPlan(warnings: result.warnings)
        let main = output ?? Path.join(directory, "\(result.drafts.first?.service ?? result.webhooks?.service ?? "api").yaml")
        if var draft = result.drafts.first {
            try plan.add(draft, main, force: force)
            if let hooks = result.webhooks {
                let path = Self.webhooksPath(beside: main)
                if path == "-" {
                    plan.warnings.append(ImportWarning(file: spec, mark: nil, message: "the description's webhooks (\(hooks.targets.count)) are not written to standard output; import to a file to have them in \(hooks.service).yaml"))
                } else {
                    try plan.add(hooks, path, force: force)
                }
            }
            plan.warnings += try Self.contracts(&draft, spec: spec, files: result.files, converted: result.converted, path: main, force: force)
            plan.writes[0].draft = draft
        } else if let hooks = result.webhooks {
            try plan.add(hooks, main, force: force)
        }
        for i in plan.writes.indices { plan.writes[i].draft = ImportMarks.marked(plan.writes[i].draft) }
        return plan
    }

    /// `expect: { schema: }` references for the paths' targets (none on standard output), the
    /// description placed (or copied) where the target file can name it.
    private static func contracts(_ draft: inout ServiceDraft, spec: String, files: [String], converted: [String: Node],
                                  path: String, force: Bool) throws(APIError) -> [ImportWarning] {
        if path == "-" {
            draft.header.append("No expect: schema: references (written to standard output; import to a file to have them).")
            return []
        }
        if let tooLarge = ImportContracts.tooLarge(&draft, spec: spec) { return [tooLarge] }
        let placed = try ImportDescription.place(spec: spec, files: files, converted: converted, service: draft.service,
                                                 targetFile: path, force: force, draft: &draft)
        var warnings = placed.warnings
        if let reference = placed.reference {
            warnings += ImportContracts.fill(&draft, description: reference, file: path)
            if let copy = placed.copy, !draft.targets.contains(where: ImportContracts.hasSchema) {
                // nothing refers to it: no copy, and no header line about one
                try? FileManager.default.removeItem(atPath: copy)
                draft.header.removeAll { $0.hasPrefix("expect: schema: refers to a copy") }
            }
        }
        return warnings
    }

    /// `targets/shop.yaml` → `targets/shop-webhooks.yaml`; `-` stays `-`.
    package static func webhooksPath(beside path: String) -> String {
        guard path != "-" else { return "-" }
        for ext in [".yaml", ".yml", ".json"] where path.hasSuffix(ext) {
            return String(path.dropLast(ext.count)) + "-webhooks" + ext
        }
        return path + "-webhooks.yaml"
    }
}
