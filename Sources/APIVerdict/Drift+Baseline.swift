import APITargets
import APIEndpoint
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension Drift {
    /// The baseline of a target from the workspace (its sample rendered with the target's
    /// bindings), for plans that build the request elsewhere.
    package static func baseline(_ target: Target, in service: Service, workspace: Workspace, mode: Mode) -> Baseline? {
        guard let sample = target.sample, sample.error == nil,
              let bindings = try? workspace.bindings(for: target, in: service),
              let response = try? Workspace.stub(sample, bindings: bindings, captures: [:], file: service.file).response()
        else { return nil }
        var baseline = Baseline(mode: mode, sample: response, ignored: sample.masked.map(Drift.normalized))
        baseline.schema = target.expect?.schema
        return baseline
    }
}

extension Drift {
    /// `$.items[0]` and `$['a']` as `Drift.paths` writes them: `$.items[*]`, `$.a`.
    package static func normalized(_ path: String) -> String {
        var out = ""
        var rest = Substring(path)
        while let open = rest.firstIndex(of: "[") {
            out += rest[..<open]
            guard let close = rest[open...].firstIndex(of: "]") else { break }
            let inner = rest[rest.index(after: open)..<close]
            if inner.first == "'" || inner.first == "\"" {
                out += segment(String(inner.dropFirst().dropLast()))
            } else {
                out += "[*]"
            }
            rest = rest[rest.index(after: close)...]
        }
        return out + rest
    }
}
