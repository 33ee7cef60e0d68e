import APISupport
import APIYAML
import APIDiagnostics
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `.env` files: `KEY=VALUE` lines loaded before `${VAR}` expansion. Blank lines and `#` comments
/// are skipped, `export ` is allowed in front, and a value in matching single or double quotes
/// loses them. The process environment wins over every file.
package enum EnvFile {
    package static func load(_ path: String) throws(APIError) -> [String: String] {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw .invalid(Diagnostic(file: nil, mark: nil, message: "cannot read env file '\(path)'"))
        }
        return try parse(String(decoding: data, as: UTF8.self), file: path)
    }

    package static func parse(_ text: String, file: String) throws(APIError) -> [String: String] {
        var values: [String: String] = [:]
        var problems: [Diagnostic] = []
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            var line = raw.trimmingSpaces()
            if line.isEmpty || line.hasPrefix("#") { continue }
            if line.hasPrefix("export ") { line = String(line.dropFirst(7)).trimmingSpaces() }
            guard let eq = line.firstIndex(of: "="), case let name = line[..<eq].trimmingSpaces(),
                  !name.isEmpty, name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }) else {
                problems.append(Diagnostic(file: file, mark: Mark(line: index + 1, column: 1),
                                           message: "expected NAME=value", hint: "names are letters, digits and '_'"))
                continue
            }
            values[name] = unquote(line[line.index(after: eq)...].trimmingSpaces())
        }
        if !problems.isEmpty { throw .invalidInput(problems) }
        return values
    }

    static func unquote(_ value: String) -> String {
        for quote in ["\"", "'"] where value.count >= 2 && value.hasPrefix(quote) && value.hasSuffix(quote) {
            return String(value.dropFirst().dropLast())
        }
        return value
    }

    /// `targets/.env` (when present), then each of `files`, then the process environment: later wins.
    package static func environment(directory: String, files: [String],
                                   process: [String: String]) throws(APIError) -> [String: String] {
        var fromFiles: [String: String] = [:]
        let local = Path.join(directory, ".env")
        if Path.exists(local) {
            // Found, not named: a named pipe is not opened (that waits for a writer); a named one
            // (`--env-file <(…)`) is read, as the user asked.
            guard Path.isRegularFile(local) else {
                throw .invalid(Diagnostic(file: local, mark: nil, message: "cannot read env file: \(TargetFile.notRegularFile)",
                                          hint: "make .env a regular file, or move it away"))
            }
            fromFiles = try load(local)
        }
        for file in files { fromFiles.merge(try load(file)) { _, new in new } }
        // The process environment as it is (no copy of it) when no file adds to it.
        guard !fromFiles.isEmpty else { return process }
        var merged = process
        for (name, value) in fromFiles where merged[name] == nil { merged[name] = value }
        return merged
    }
}
