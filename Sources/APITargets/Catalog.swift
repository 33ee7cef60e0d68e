import APISupport
import APIYAML
import APIDiagnostics
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Every service of a targets folder, and lookup of `service.target` names.
package struct Catalog: Sendable {
    package var services: [Service]

    package init(services: [Service]) {
        self.services = services
    }

    /// Files that hold services: `*.yaml` and `*.yml`, sorted by name; not the project file
    /// (`apicli.yaml`), hidden files, nor files of shared blocks (`*.inc.yaml`, `include:`).
    package static func files(in directory: String) throws(APIError) -> [String] {
        guard Path.isDirectory(directory) else {
            throw .invalid(Diagnostic(file: nil, mark: nil, message: "no targets folder at '\(directory)'",
                                      hint: "run from the folder that holds targets/, or pass --targets DIR (or set APICLI_TARGETS)"))
        }
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory)
        } catch {
            // Never "no files": a folder that cannot be listed now (out of file descriptors) is an
            // error, so `mock` keeps the routes it has instead of reloading to none.
            throw .invalid(Diagnostic(file: nil, mark: nil, message: "cannot list the targets folder '\(directory)': \(Self.listingProblem(directory))",
                                      hint: "try again; if it persists, check the folder's permissions and the open-file limit (ulimit -n)"))
        }
        return names.filter { $0.hasSuffix(".yaml") || $0.hasSuffix(".yml") }
            .filter { !$0.hasPrefix(".") && !Project.fileNames.contains($0) && !TargetFile.isSharedFile($0) }
            .sorted()
            .map { Path.join(directory, $0) }
    }

    /// Why a folder cannot be listed, in the system's words (opened once more to read `errno`).
    private static func listingProblem(_ directory: String) -> String {
        guard let dir = opendir(directory) else { return String(cString: strerror(errno)) }
        closedir(dir)
        return "it could not be read"
    }

    /// Loads every file of `directory`. Problems of all files are reported together.
    package static func load(directory: String) throws(APIError) -> Catalog {
        try load(files: files(in: directory))
    }

    /// `load(directory:)`, appending each file's YAML tree to `trees` when not nil
    /// (`TargetFile.load(_:only:keeping:)`).
    package static func load(directory: String, keeping trees: inout [Node]?) throws(APIError) -> Catalog {
        try load(files: files(in: directory), keeping: &trees)
    }

    package static func load(files: [String]) throws(APIError) -> Catalog {
        var trees: [Node]? = nil
        return try load(files: files, keeping: &trees)
    }

    package static func load(files: [String], keeping trees: inout [Node]?) throws(APIError) -> Catalog {
        let (services, problems) = loadAll(files: files, keeping: &trees)
        if !problems.isEmpty { throw .invalidInput(problems) }
        return Catalog(services: services)
    }

    /// Every service that decodes, and every problem of every file (a service name defined twice
    /// included): `validate` reports all of them and still judges the samples of the good files.
    package static func loadAll(files: [String]) -> (services: [Service], problems: [Diagnostic]) {
        var trees: [Node]? = nil
        return loadAll(files: files, keeping: &trees)
    }

    /// `loadAll(files:)`, appending each file's YAML tree to `trees` when not nil
    /// (`TargetFile.load(_:only:keeping:)`).
    package static func loadAll(files: [String], keeping trees: inout [Node]?) -> (services: [Service], problems: [Diagnostic]) {
        var services: [Service] = []
        var problems: [Diagnostic] = []
        var byName: [String: String] = [:]
        for file in files {
            if let shared = TargetFile.sharedProblems(file) {  // shared blocks (`include:`) named to `validate`: checked alone
                problems += shared
                continue
            }
            do {
                let service = try TargetFile.load(file, keeping: &trees)
                if let other = byName[service.name] {
                    problems.append(Diagnostic(file: file, mark: nil,
                                               message: "service '\(service.name)' is also defined in \(other)",
                                               hint: "give one of them another service: name"))
                    continue
                }
                byName[service.name] = file
                services.append(service)
            } catch {
                if case .invalidInput(let d) = error { problems += d }
            }
        }
        return (services, problems)
    }

    /// Finds `service.target`. Reads `<service>.yaml` alone when that file defines the service, so
    /// one broken or huge unrelated file does not slow or block a call, and decodes only that
    /// target of it (a mistake in another target of the file does not block this one; `validate`
    /// reports it); otherwise reads the folder.
    package static func find(_ name: String, in directory: String) throws(APIError) -> (Service, Target) {
        let (serviceName, targetName) = parts(name)
        for ext in ["yaml", "yml"] {
            let file = Path.join(directory, "\(serviceName).\(ext)")
            guard TargetFile.isName(serviceName), serviceName != "apicli",
                  Path.exists(file) else { continue }
            let service = try TargetFile.load(file, only: targetName)
            if service.name == serviceName {
                // Not there: load the whole file, for the did-you-mean of the unknown name.
                if let targetName, service.target(named: targetName) == nil {
                    return try Catalog(services: [try TargetFile.load(file)]).lookup(name)
                }
                if let targetName, let target = service.target(named: targetName) { return (service, target) }
                return try Catalog(services: [service]).lookup(name)
            }
        }
        return try load(directory: directory).lookup(name)
    }

    /// `service.target`'s two names: what `split(separator: ".", maxSplits: 1)` gives, without its
    /// generic work for the common case (one dot with a name on each side).
    private static func parts(_ name: String) -> (service: String, target: String?) {
        let bytes = name.utf8
        if let dot = bytes.firstIndex(of: UInt8(ascii: ".")), dot != bytes.startIndex, bytes.index(after: dot) != bytes.endIndex,
           bytes[bytes.index(after: dot)] != UInt8(ascii: ".") {
            return (String(name[..<dot]), String(name[bytes.index(after: dot)...]))
        }
        let split = name.split(separator: ".", maxSplits: 1)
        return (split.first.map(String.init) ?? name, split.dropFirst().first.map(String.init))
    }

    /// `service.target` names in declaration order.
    package var qualifiedNames: [String] {
        services.flatMap { s in s.targets.map(\.qualifiedName) }
    }

    package func lookup(_ name: String) throws(APIError) -> (Service, Target) {
        let parts = name.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        if parts.count == 2, let service = services.first(where: { $0.name == parts[0] }) {
            if let target = service.target(named: parts[1]) { return (service, target) }
            throw unknown(name, candidates: service.targets.map(\.qualifiedName))
        }
        throw unknown(name, candidates: qualifiedNames)
    }

    private func unknown(_ name: String, candidates: [String]) -> APIError {
        var hint = Suggestions.hint(for: name, in: candidates)
        if hint == nil, !name.contains(".") {
            hint = "name a target as service.target; `apicli list` shows them all"
        } else if hint == nil {
            hint = "`apicli list` shows every target"
        }
        return .invalid(Diagnostic(file: nil, mark: nil, message: "unknown target '\(name)'", hint: hint))
    }
}
