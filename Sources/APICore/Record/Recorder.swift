#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `apicli record`: a live response written into its target file as a sample, in place.
public enum Recorder {
    /// Where a body too large or not text for the target file goes, relative to the target file's
    /// folder: `samples/service.target[.name].ext`.
    public static func sideFile(service: String, target: String, name: String?, ext: String) -> String {
        "samples/\(service).\(target)\(name.map { "." + $0 } ?? "").\(ext)"
    }

    /// Writes `sample` as `target`'s `sample:` (name nil) or `samples: name` in `service`'s file,
    /// and a side file when the body is one. The edited text must decode with the sample in it,
    /// else nothing is written. Both writes are atomic. Returns the side file written, if any.
    @discardableResult
    public static func write(_ sample: RecordedSample, service: Service, target: Target, name: String?) throws(APIError) -> String? {
        let file = service.file
        guard let data = FileManager.default.contents(atPath: file) else {
            throw .invalid(Diagnostic(file: file, mark: nil, message: "cannot read target file"))
        }
        let root: Node?
        do { root = try YAMLParser.parse([UInt8](data)) } catch { throw .invalid(Diagnostic(file: file, error)) }
        guard let root else { throw .invalid(Diagnostic(file: file, mark: nil, message: "the target file is empty")) }
        var side: (relative: String, bytes: Data)?
        if case .file(let bytes, let ext)? = sample.body {
            side = (sideFile(service: service.name, target: target.name, name: name, ext: ext), bytes)
        }
        var editor = TargetFileEditor(text: String(decoding: data, as: UTF8.self), file: file)
        try editor.write(sample, name: name, target: target.name, root: root, sideFile: side?.relative)
        let text = try editor.checked(defaultName: service.name, what: "record: writing the sample") {
            $0.target(named: target.name)?.sample(named: name) != nil
        }
        var written: String?
        if let side {
            let path = Path.join(Path.parent(file), side.relative)
            let out = try PartialFile.create(for: path, createFolders: true)
            defer { out.discard() }
            try out.write(side.bytes)
            try out.commit()
            written = path
        }
        try OutputFile.write(Data(text.utf8), to: file)
        return written
    }
}
