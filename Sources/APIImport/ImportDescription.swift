import APISupport
import APIDiagnostics
import APITransport
import APIVerdict
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Where the target file written by `import openapi` finds the description for its
/// `expect: { schema: { openapi: … } }` references. The Schema stage reads schema files only in or
/// below the target file's folder, so:
/// - a description already there is referenced where it is (a relative path: the description
///   stays the one source of truth, and a change to it is checked at once);
/// - one elsewhere is copied, every file the import read keeping its place relative to the spec,
///   to `SERVICE.openapi/` beside the target file, and that copy is referenced; importing again
///   (with `--force`) refreshes it. A description with files outside its own folder (allowed by
///   `--allow-ref-root`) is not copied: the targets get no `schema:`, and a warning says so.
enum ImportDescription {
    /// The description's path relative to the folder of `targetFile`, after copying it when it
    /// must be (and the copy's folder); nil (and the header says why) when the targets cannot reference it.
    static func place(spec: String, files: [String], service: String, targetFile: String, force: Bool,
                      draft: inout ServiceDraft) throws(APIError) -> (reference: String?, copy: String?, warnings: [ImportWarning]) {
        let folder = Path.parent(targetFile)
        let folderReal = Path.resolved(folder.isEmpty ? "." : folder) ?? Path.normalized(absolute(folder))
        let specReal = Path.resolved(spec) ?? Path.normalized(absolute(spec))
        if specReal.hasPrefix(folderReal + "/") {
            return (String(specReal.dropFirst(folderReal.count + 1)), nil, [])
        }
        let specFolder = Path.parent(specReal)
        var copies: [(from: String, relative: String)] = []
        for file in ImportContracts.descriptionFiles(files.map { Path.resolved($0) ?? $0 } + [specReal], inside: specFolder) {
            let real = Path.resolved(file) ?? file
            guard real.hasPrefix(specFolder + "/") else {
                let why = "the description names files outside its folder (\(file)), so it is not copied beside the targets"
                draft.header.append("No expect: schema: references: \(why).")
                return (nil, nil, [ImportWarning(file: spec, mark: nil, message: "\(why); no expect: schema: written (keep the description in a folder under the targets folder to have it referenced)")])
            }
            copies.append((real, String(real.dropFirst(specFolder.count + 1))))
        }
        let copyFolder = Path.join(folder, "\(service).openapi")
        if !force, Path.exists(copyFolder) {
            throw .output("\(copyFolder) already exists; pass --force to replace it")
        }
        for c in copies {
            guard let data = FileManager.default.contents(atPath: c.from) else { throw .output("cannot read \(c.from) to copy it") }
            let destination = Path.join(copyFolder, c.relative)
            let parent = Path.parent(destination)
            if !Path.exists(parent), Path.makeDirectories(parent) == nil { throw .output("cannot create folder \(parent)") }
            try OutputFile.write(data, to: destination)
        }
        draft.header.append("expect: schema: refers to a copy of \(Path.lastComponent(spec)) in \(service).openapi/; import again with --force to refresh it.")
        return ("\(service).openapi/" + Path.lastComponent(specReal), copyFolder, [])
    }

    private static func absolute(_ path: String) -> String {
        path.hasPrefix("/") ? path : Path.join(FileManager.default.currentDirectoryPath, path)
    }
}
