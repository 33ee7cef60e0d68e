import APISupport
import APIYAML
import APIDiagnostics
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A file a target file names: a body, an upload, a multipart part, a sample body, a CA file.
/// Paths resolve against the target file's folder when the file is loaded; whether the file exists
/// is checked when it is used, so one missing file fails only the target that names it: `call`,
/// `show` and `check` of that target fail (exit 2), other targets of the file work, and
/// `validate` reports every missing file.
package struct FileReference: Sendable {
    package enum Use: Sendable {
        /// Sent with the request: checked whenever the request is built.
        case request
        /// A sample's body: read when a stub answers.
        case sample
        /// `tls: { cacert: }`: read when the first live request is sent.
        case tls
    }

    /// `upload file`, `part file`, `body file`, `sample file`, `tls cacert`.
    package var what: String
    /// As written in the file.
    package var written: String
    /// Resolved against the target file's folder.
    package var path: String
    package var mark: Mark
    package var use: Use
    /// The target that names it; nil for the service's own (`tls:`).
    package var target: String?
}

package enum FileCheck {
    /// A diagnostic for each file of `references` that is not an existing regular file or folder-less path.
    package static func missing(_ references: [FileReference], file: String) -> [Diagnostic] {
        references.compactMap { ref in
            if Path.exists(ref.path), !Path.isDirectory(ref.path) { return nil }
            return Diagnostic(file: file, mark: ref.mark, message: "\(ref.what) '\(ref.written)' does not exist (looked for \(ref.path))",
                              hint: "paths are relative to the folder of the target file")
        }
    }

    /// Every missing file of a service (`validate`).
    package static func missing(in service: Service) -> [Diagnostic] {
        missing(service.files, file: service.file)
    }

    /// The missing files a target's request needs: an error for `call`, `show` and `check`.
    package static func requestFiles(of target: Target, in service: Service) throws(APIError) {
        let problems = missing(service.files.filter { $0.use == .request && $0.target == target.name }, file: service.file)
        if !problems.isEmpty { throw .invalidInput(problems) }
    }
}
