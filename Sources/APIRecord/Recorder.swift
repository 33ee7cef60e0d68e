import APISupport
import APIYAML
import APIDiagnostics
import APITargets
import APITransport
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `apicli record`: a live response written into its target file as a sample, in place.
package enum Recorder {
    /// Where a body too large or not text for the target file goes, relative to the target file's
    /// folder: `samples/service.target[.name].ext`.
    package static func sideFile(service: String, target: String, name: String?, ext: String) -> String {
        "samples/\(service).\(target)\(name.map { "." + $0 } ?? "").\(ext)"
    }

    /// Writes `sample` as `target`'s `sample:` (name nil) or `samples: name` in `service`'s file,
    /// and a side file when the body is one. The edited text must decode with the sample in it,
    /// else nothing is written. Both writes are atomic. Returns the side file written, if any.
    @discardableResult
    package static func write(_ sample: RecordedSample, service: Service, target: Target, name: String?) throws(APIError) -> String? {
        let file = service.file
        guard let data = FileManager.default.contents(atPath: file) else { throw .invalid(TargetFile.unreadable(file)) }
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
        // Both files are written under temporary names first (a full disk or an unwritable folder
        // fails here, before anything is replaced); the side file is renamed into place, then the
        // target file last. If that last rename fails, the side file goes back to what it was.
        let targetFile = try PartialFile.create(for: file)
        defer { targetFile.discard() }
        try targetFile.write(Data(text.utf8))
        guard let side else {
            try targetFile.commit()
            return nil
        }
        let path = Path.join(Path.parent(file), side.relative)
        let out = try PartialFile.create(for: path, createFolders: true)
        defer { out.discard() }
        try out.write(side.bytes)
        let previous = SideFileBackup(path)
        try out.commit()
        do throws(APIError) {
            try targetFile.commit()
        } catch {
            previous.restore()
            throw error
        }
        previous.drop()
        return path
    }
}

/// The side file `record` is about to replace, kept as a hard link under a temporary name so that
/// a failed target-file write can put it back (or remove the new one when there was none).
struct SideFileBackup {
    let path: String
    let backup: String?

    init(_ path: String) {
        self.path = path
        var info = stat()
        guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { backup = nil; return }
        let name = Path.join(Path.parent(path), ".apicli-old-\(UInt32.random(in: 0 ... .max))")
        backup = link(path, name) == 0 ? name : nil
    }

    func restore() {
        if let backup { rename(backup, path) } else { unlink(path) }
    }

    func drop() {
        if let backup { unlink(backup) }
    }
}
