import APISupport
import APIDiagnostics
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

/// A body being received into a file (a download, `-o`). The bytes go to a temporary file in the
/// destination's folder (`.apicli-XXXXXX`); `commit` renames it over the destination only when the
/// body is complete and accepted, `discard` removes it otherwise, and a signal that ends the program
/// (Ctrl-C) removes every one still open (`SignalExit`). So a failed, rejected or interrupted
/// transfer never leaves a partial file nor touches an existing one.
///
/// Destinations that are not regular files (`/dev/stdout`, a FIFO, a symlink) cannot be renamed
/// over: their body is kept in a temporary file elsewhere and copied in place at `commit`.
/// Writes are serialised; after `discard` they throw, so a transport still streaming a cancelled
/// transfer stops.
package final class PartialFile: BodySink, @unchecked Sendable {
    /// As the user named it.
    package let destination: String
    package let temporaryPath: String
    private let inPlace: Bool
    private let lock = Mutex()
    private var fd: Int32
    private var isOpen = true
    private var written: Int64 = 0
    /// Folders `create` made (deepest last), removed again by `discard` when empty.
    private var createdFolders: [String]

    /// The temporary file and the folders made for it, removed if a signal ends the program first.
    private var removedOnSignal: [SignalExit.Ticket]

    /// `create(inFolder:)`: `destination` is a folder, the name comes at `commit(as:)`.
    private let isFolder: Bool

    private init(destination: String, temporaryPath: String, fd: Int32, inPlace: Bool, isFolder: Bool,
                 createdFolders: [String]) {
        self.destination = destination
        self.temporaryPath = temporaryPath
        self.fd = fd
        self.inPlace = inPlace
        self.isFolder = isFolder
        self.createdFolders = createdFolders
        removedOnSignal = ([temporaryPath] + createdFolders.reversed()).enumerated().compactMap { i, path in
            SignalExit.removeOnExit(path, isFolder: i > 0)
        }
    }

    /// Opens the temporary file for `destination`. With `createFolders`, missing folders on the
    /// way are made (and removed again if the transfer fails). A folder is not a destination.
    package static func create(for destination: String, createFolders: Bool = false) throws(APIError) -> PartialFile {
        var info = stat()
        if stat(destination, &info) == 0, info.st_mode & S_IFMT == S_IFDIR {
            errno = EISDIR
            throw OutputFile.failure(destination)
        }
        let special = lstat(destination, &info) == 0 && info.st_mode & S_IFMT != S_IFREG
        let named = Path.parent(destination)
        var created: [String] = []
        if createFolders, !special, !named.isEmpty { created = try makeFolders(named, for: destination) }
        do throws(APIError) {
            return try openTemporary(destination, in: special ? Path.temporaryDirectory : (named.isEmpty ? "." : named),
                            inPlace: special, isFolder: false, created: created)
        } catch {
            for folder in created.reversed() { rmdir(folder) }
            throw error
        }
    }

    /// A file in `folder` whose name is chosen when it is complete, at `commit(as:)` (`--download`).
    package static func create(inFolder folder: String) throws(APIError) -> PartialFile {
        try openTemporary(folder, in: folder, inPlace: false, isFolder: true, created: [])
    }

    private static func openTemporary(_ destination: String, in folder: String, inPlace: Bool, isFolder: Bool,
                             created: [String]) throws(APIError) -> PartialFile {
        var template = Array(((folder.hasSuffix("/") ? folder : folder + "/") + ".apicli-XXXXXX").utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { throw OutputFile.failure(destination) }
        let path = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return PartialFile(destination: destination, temporaryPath: path, fd: fd, inPlace: inPlace, isFolder: isFolder,
                           createdFolders: created)
    }

    private static func makeFolders(_ folder: String, for destination: String) throws(APIError) -> [String] {
        guard let made = Path.makeDirectories(folder) else { throw OutputFile.failure(destination) }
        return made
    }

    /// Bytes written so far.
    package var bytesWritten: Int64 {
        lock.lock()
        defer { lock.unlock() }
        return written
    }

    package func write(_ bytes: UnsafeRawBufferPointer) throws(APIError) {
        lock.lock()
        defer { lock.unlock() }
        guard isOpen else { throw .network(.other("the transfer to \(destination) was stopped")) }
        guard OutputFile.writeAll(bytes, to: fd) else { throw OutputFile.failure(destination) }
        written += Int64(bytes.count)
    }

    /// Empties the file to start over (the same exchange sent again).
    package func reset() throws(APIError) {
        lock.lock()
        defer { lock.unlock() }
        guard isOpen, ftruncate(fd, 0) == 0, lseek(fd, 0, SEEK_SET) == 0 else { throw OutputFile.failure(destination) }
        written = 0
    }

    /// Up to `limit` bytes from the start (for `-vv`'s preview of a rejected body).
    package func prefix(_ limit: Int) -> Data {
        lock.lock()
        defer { lock.unlock() }
        guard isOpen else { return Data() }
        var data = Data(count: limit)
        let n = data.withUnsafeMutableBytes { pread(fd, $0.baseAddress, limit, 0) }
        return n > 0 ? data.prefix(n) : Data()
    }

    /// Moves the complete body into place: over `destination`, or with `name` to that file in
    /// the same folder. `replace: false` refuses to replace an existing file (exit 5). A file
    /// replaced keeps its permissions and owner unless `mode` is given.
    package func commit(as name: String? = nil, replace: Bool = true, mode: mode_t? = nil) throws(APIError) {
        lock.lock()
        defer { lock.unlock() }
        guard isOpen else { throw .network(.other("the transfer to \(destination) was stopped")) }
        let folder = isFolder ? destination : Path.parent(destination)
        let target = name.map { folder == "." || folder.isEmpty ? $0 : Path.join(folder, $0) }
            ?? destination
        do throws(APIError) {
            if inPlace {
                try copyInPlace(to: target)
            } else {
                guard fsync(fd) == 0 || errno == EINVAL else { throw OutputFile.failure(target) }
                // A replaced file keeps its mode (a 0600 target file or download stays 0600) and,
                // where allowed, its owner, as curl does; a new file gets `mode` or the umask's.
                let mask = umask(0)
                umask(mask)
                var old = stat()
                let replacing = replace && stat(target, &old) == 0 && old.st_mode & S_IFMT == S_IFREG
                fchmod(fd, mode ?? (replacing ? old.st_mode & 0o7777 : 0o666 & ~mask))
                if replacing { _ = fchown(fd, old.st_uid, old.st_gid) }
                if !replace {
                    let placeholder = open(target, O_WRONLY | O_CREAT | O_EXCL, 0o600)
                    guard placeholder >= 0 else {
                        if errno == EEXIST {
                            throw .output("\(target) already exists; apicli does not replace a file named by the server "
                                          + "(remove it, or choose the name with -o)")
                        }
                        throw OutputFile.failure(target)
                    }
                    close(placeholder)
                }
                guard rename(temporaryPath, target) == 0 else {
                    let error = OutputFile.failure(target)
                    if !replace { unlink(target) }
                    throw error
                }
            }
            finish(removeTemporary: inPlace, removeFolders: false)
        } catch {
            finish(removeTemporary: true, removeFolders: true)
            throw error
        }
    }

    /// Removes the temporary file (and folders `create` made); the destination is untouched.
    package func discard() {
        lock.lock()
        defer { lock.unlock() }
        if isOpen { finish(removeTemporary: true, removeFolders: true) }
    }

    /// Called with `lock` held.
    private func finish(removeTemporary: Bool, removeFolders: Bool) {
        close(fd)
        fd = -1
        isOpen = false
        if removeTemporary { unlink(temporaryPath) }
        if removeFolders { for folder in createdFolders.reversed() { rmdir(folder) } }
        for ticket in removedOnSignal { SignalExit.keep(ticket) }
        removedOnSignal = []
    }

    /// Special destinations: the kept body, copied into the existing file a chunk at a time.
    private func copyInPlace(to target: String) throws(APIError) {
        let out = open(target, O_WRONLY | O_TRUNC)
        guard out >= 0 else { throw OutputFile.failure(target) }
        defer { close(out) }
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        var offset: off_t = 0
        while true {
            let n = buffer.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, offset) }
            if n < 0 { throw OutputFile.failure(target) }
            if n == 0 { return }
            let ok = buffer.withUnsafeBytes { OutputFile.writeAll(UnsafeRawBufferPointer(rebasing: $0[0..<n]), to: out) }
            guard ok else { throw OutputFile.failure(target) }
            offset += off_t(n)
        }
    }
}
