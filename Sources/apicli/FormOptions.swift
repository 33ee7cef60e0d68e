import APICore
import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `-F`: multipart parts from the command line (`call`, `show`).
struct FormOptions: ParsableArguments {
    @Option(name: [.customShort("F"), .customLong("form")],
            help: ArgumentHelp("Add or replace a multipart part: -F note=hi, -F 'file=@photo.png;type=image/png;filename=me.png' (repeatable).",
                               valueName: "name=value|name=@file"))
    var forms: [String] = []

    func validate() throws {
        for f in forms where Self.parse(f) == nil {
            throw ValidationError("-F takes name=value or name=@file, got '\(f)'")
        }
    }

    /// The parts, in order. A file must exist and be readable (else exit 2).
    func parts() throws(APIError) -> [FormPart] {
        var out: [FormPart] = []
        for f in forms {
            guard let part = Self.parse(f) else { continue }
            if case .file(let path) = part.content {
                do throws(APIError) {
                    _ = try SizedBody.size(of: path)
                } catch {
                    throw .invalid(Diagnostic(file: nil, mark: nil, message: "-F \(part.name)=@\(path): " + Self.reason(error),
                                              hint: "paths after @ are relative to the working directory"))
                }
            }
            out.append(part)
        }
        return out
    }

    private static func reason(_ error: APIError) -> String {
        guard case .invalidInput(let d) = error, let first = d.first else { return "cannot read it" }
        return first.message
    }

    /// `name=value`, or `name=@path` with optional `;type=…` and `;filename=…` (curl's spelling).
    static func parse(_ spec: String) -> FormPart? {
        guard let eq = spec.firstIndex(of: "="), eq != spec.startIndex else { return nil }
        let name = String(spec[..<eq])
        let rest = String(spec[spec.index(after: eq)...])
        guard rest.hasPrefix("@") else { return FormPart(name: name, content: .value(Template(rest, mark: Mark(line: 0, column: 0)))) }
        var fields = rest.dropFirst().split(separator: ";", omittingEmptySubsequences: false).map(String.init)
        let path = fields.removeFirst()
        guard !path.isEmpty else { return nil }
        var part = FormPart(name: name, content: .file(path))
        for field in fields {
            if field.hasPrefix("type=") { part.type = String(field.dropFirst(5)) }
            else if field.hasPrefix("filename=") { part.filename = String(field.dropFirst(9)) }
            else { return nil }
        }
        return part
    }
}
