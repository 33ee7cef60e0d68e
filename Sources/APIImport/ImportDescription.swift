import APISupport
import APIYAML
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
    /// A Swagger 2.0 description (`converted`: its files as OpenAPI 3.0) is always copied, as
    /// converted, the spec as `NAME.openapi.yaml`.
    static func place(spec: String, files: [String], converted: [String: Node] = [:], service: String, targetFile: String, force: Bool,
                      draft: inout ServiceDraft) throws(APIError) -> (reference: String?, copy: String?, warnings: [ImportWarning]) {
        let folder = Path.parent(targetFile)
        let folderReal = Path.resolved(folder.isEmpty ? "." : folder) ?? Path.normalized(absolute(folder))
        let specReal = Path.resolved(spec) ?? Path.normalized(absolute(spec))
        if specReal.hasPrefix(folderReal + "/"), converted.isEmpty {
            return (String(specReal.dropFirst(folderReal.count + 1)), nil, [])
        }
        let specFolder = Path.parent(specReal)
        var bytes: [String: [UInt8]] = [:]  // real path → converted document
        for (file, node) in converted { bytes[Path.resolved(file) ?? file] = Array(YAMLWriter.document(YAMLOut(node)).utf8) }
        let specCopy = converted.isEmpty ? Path.lastComponent(specReal) : Self.convertedName(specReal)
        var copies: [(from: String, relative: String)] = []
        let described = converted.isEmpty
            ? ImportContracts.descriptionFiles(files.map { Path.resolved($0) ?? $0 } + [specReal], inside: specFolder)
            : bytes.keys.sorted()
        for file in described {
            let real = Path.resolved(file) ?? file
            guard real.hasPrefix(specFolder + "/") else {
                let why = "the description names files outside its folder (\(file)), so it is not copied beside the targets"
                draft.header.append("No expect: schema: references: \(why).")
                return (nil, nil, [ImportWarning(file: spec, mark: nil, message: "\(why); no expect: schema: written (keep the description in a folder under the targets folder to have it referenced)")])
            }
            copies.append((real, real == specReal ? specCopy : String(real.dropFirst(specFolder.count + 1))))
        }
        let copyFolder = Path.join(folder, "\(service).openapi")
        if !force, Path.exists(copyFolder) {
            throw .output("\(copyFolder) already exists; pass --force to replace it")
        }
        for c in copies {
            guard let data = bytes[c.from] ?? FileManager.default.contents(atPath: c.from).map(Array.init) else { throw .output("cannot read \(c.from) to copy it") }
            let destination = Path.join(copyFolder, c.relative)
            let parent = Path.parent(destination)
            if !Path.exists(parent), Path.makeDirectories(parent) == nil { throw .output("cannot create folder \(parent)") }
            try OutputFile.write(Data(data), to: destination)
        }
        let what = converted.isEmpty ? "a copy of \(Path.lastComponent(spec))" : "\(Path.lastComponent(spec)) converted to OpenAPI 3.0"
        draft.header.append("expect: schema: refers to \(what) in \(service).openapi/; import again with --force to refresh it.")
        return ("\(service).openapi/" + specCopy, copyFolder, [])
    }

    /// `swagger.json` → `swagger.openapi.yaml`.
    static func convertedName(_ path: String) -> String {
        let name = Path.lastComponent(path)
        let stem = name.split(separator: ".").dropLast().joined(separator: ".")
        return (stem.isEmpty ? name : stem) + ".openapi.yaml"
    }

    private static func absolute(_ path: String) -> String {
        path.hasPrefix("/") ? path : Path.join(FileManager.default.currentDirectoryPath, path)
    }
}
