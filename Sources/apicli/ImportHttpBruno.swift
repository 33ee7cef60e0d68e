import APISupport
import APIDiagnostics
import APIImport
import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension APICLI.Import {
    struct Http: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "http",
            abstract: "Write service files from .http / .rest files (JetBrains HTTP Client, REST Client, httpyac, Kulala).",
            usage: "apicli import http [<options>] <file> ...",  // argument-parser's own is wider than 80 columns
            discussion: """
                One target per request (### separates them; # @name names one); {{variables}} become ${VARIABLES} \
                with @var = value and http-client.env.json values as defaults, its environments' base URLs \
                environments:, http-client.private.env.json's variables secrets; scripts and response handlers \
                are not run (a warning each). One service file per origin. Warnings go to stderr as FILE:LINE:COL: warning: …
                """,
            aliases: ["rest"]
        )

        @Argument(help: ArgumentHelp("The .http or .rest files.", valueName: "file"),
                  completion: .file(extensions: ["http", "rest"]))
        var files: [String]

        @OptionGroup var options: ImportAppOptions

        func validate() throws {
            if files.isEmpty { throw ValidationError("name at least one .http file") }
        }

        func run() throws {
            Terminal.setUp()
            do throws(APIError) {
                let importer = HttpFileImport(options: .init(service: options.service), readFile: { ImportFiles.read($0) })
                var inputs: [ImportInput] = []
                for file in files { inputs.append(ImportInput(name: file, bytes: try ImportIO.read(file))) }
                try options.write(importer.run(inputs))
            } catch {
                throw Console.plain.fail(error, target: nil)
            }
        }
    }
}

extension APICLI.Import {
    struct Bruno: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "bruno",
            abstract: "Write service files from a Bruno collection (.bru files or OpenCollection YAML).",
            usage: "apicli import bruno [<options>] <dir|file>",  // argument-parser's own is wider than 80 columns
            discussion: """
                DIR is the collection's folder (bruno.json or opencollection.yml); FILE a .bru request or an \
                OpenCollection file. Folders prefix the target names; headers, auth and vars are inherited as in \
                Bruno; {{variables}} become ${VARIABLES}; environments' base URLs become environments:; asserts \
                with an equivalent become expect:; scripts and tests are not run (a warning each). One service \
                file per origin. Warnings go to stderr as FILE:LINE:COL: warning: …
                """
        )

        @Argument(help: ArgumentHelp("The collection's folder, an OpenCollection file or a .bru file.", valueName: "dir|file"),
                  completion: .file())
        var collection: String

        @OptionGroup var options: ImportAppOptions

        func run() throws {
            Terminal.setUp()
            do throws(APIError) {
                let importer = BrunoImport(options: .init(service: options.service), files: ImportFiles.folder)
                // A folder named through a symbolic link is read where it is (links below it are not followed).
                let folder = Path.isDirectory(collection) && ImportFiles.isSymbolicLink(collection) ? Path.resolved(collection) ?? collection : collection
                let bytes = Path.isDirectory(folder) ? [] : try ImportIO.read(folder)
                try options.write(importer.run(ImportInput(name: folder, bytes: bytes)))
            } catch {
                throw Console.plain.fail(error, target: nil)
            }
        }
    }
}

/// The disk as the folder importers read it: files up to 64 MiB, folders' entry names.
enum ImportFiles {
    static let maxBytes: Int64 = 64 << 20

    static func read(_ path: String) -> [UInt8]? {
        guard Path.isRegularFile(path), (Path.size(path) ?? 0) <= maxBytes, let data = FileManager.default.contents(atPath: path) else { return nil }
        return [UInt8](data)
    }

    /// A folder's names; a symbolic link to a folder is not followed (a link to its own parent
    /// would make the walk endless), a link to a file is read.
    static let folder = ImportFolder(read: { read($0) }, list: { path in
        guard Path.isDirectory(path), !isSymbolicLink(path) else { return nil }
        return try? FileManager.default.contentsOfDirectory(atPath: path)
    })

    static func isSymbolicLink(_ path: String) -> Bool {
        var p = path
        while p.count > 1, p.hasSuffix("/") { p.removeLast() }  // `dir/` names the folder, not a link
        return (try? FileManager.default.attributesOfItem(atPath: p))?[.type] as? FileAttributeType == .typeSymbolicLink
    }
}
