#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// File paths as text and what is at them, without NSString or FileManager's ObjCBool.
package enum Path {
    /// `a` and `b` joined with one `/` (`b` alone when `a` is empty).
    package static func join(_ a: String, _ b: String) -> String {
        if a.isEmpty { return b }
        if b.hasPrefix("/") { return a.hasSuffix("/") ? String(a.dropLast()) + b : a + b }
        return a.hasSuffix("/") ? a + b : a + "/" + b
    }

    /// The absolute path with symbolic links, `.` and `..` resolved (`realpath`), or nil when it
    /// does not exist.
    package static func resolved(_ path: String) -> String? {
        guard let p = realpath(path.isEmpty ? "." : path, nil) else { return nil }
        defer { free(p) }
        return String(cString: p)
    }

    /// A name from elsewhere (a server's `Content-Disposition`, a value captured into a
    /// `download:` path) names one entry of its folder: no `/` nor `\\`, not `.` nor `..`, none of
    /// the characters that hide what a name says (`isHidden`).
    package static func isPlainName(_ name: String) -> Bool {
        !name.isEmpty && name != "." && name != ".." && !name.contains(where: isSeparator)
            && !name.unicodeScalars.contains(where: isHidden)
    }

    /// `/`, and `\\` (a separator on Windows, refused everywhere).
    package static func isSeparator(_ c: Character) -> Bool { c == "/" || c == "\\" }

    /// Characters a name must not carry: C0 and C1 controls, DEL, and the bidirectional marks,
    /// embeddings, overrides and isolates that make `evil\u{202E}txt.exe` show as `evilexe.txt`.
    package static func isHidden(_ s: Unicode.Scalar) -> Bool {
        switch s.value {
        case 0..<0x20, 0x7F...0x9F, 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }

    /// `.` and `..` collapsed as text (`a/./b/../c` → `a/c`); a relative path keeps leading `..`s.
    package static func normalized(_ path: String) -> String {
        var parts: [Substring] = []
        for part in path.split(separator: "/") where part != "." {
            if part == "..", let last = parts.last, last != ".." { parts.removeLast() }
            else if part == "..", path.hasPrefix("/") { continue }
            else { parts.append(part) }
        }
        return (path.hasPrefix("/") ? "/" : "") + parts.joined(separator: "/")
    }

    /// Whether `path` is `root` or inside it: compared as real paths when both exist, else as text.
    package static func isInside(_ path: String, _ root: String) -> Bool {
        if let p = resolved(path), let r = resolved(root) {
            return p == r || p.hasPrefix(r.hasSuffix("/") ? r : r + "/")
        }
        let p = normalized(path), r = normalized(root)
        guard p.hasPrefix("/") == r.hasPrefix("/") else { return false }
        if r.isEmpty { return p != ".." && !p.hasPrefix("../") }
        return p == r || p.hasPrefix(r.hasSuffix("/") ? r : r + "/")
    }

    /// The last component: `targets/api.yaml` → `api.yaml`.
    package static func lastComponent(_ path: String) -> String {
        // Bytes, not Characters: a path is bytes, and counting Characters walks grapheme breaks.
        let bytes = path.utf8
        var end = bytes.endIndex
        while bytes.distance(from: bytes.startIndex, to: end) > 1, bytes[bytes.index(before: end)] == UInt8(ascii: "/") {
            end = bytes.index(before: end)
        }
        let start = bytes[..<end].lastIndex(of: UInt8(ascii: "/")).map { bytes.index(after: $0) } ?? bytes.startIndex
        return String(path[start..<end])
    }

    /// The folder part: `targets/api.yaml` → `targets`, `api.yaml` → ``, `/api.yaml` → `/`.
    package static func parent(_ path: String) -> String {
        var p = Substring(path)
        while p.count > 1, p.hasSuffix("/") { p = p.dropLast() }
        guard let slash = p.lastIndex(of: "/") else { return "" }
        return slash == p.startIndex ? "/" : String(p[..<slash])
    }

    /// `mkdir -p`: `path` and every missing parent, made with `mode`. The folders it made
    /// (outermost first), or nil when one could not be made (then those it made are removed again).
    package static func makeDirectories(_ path: String, mode: mode_t = 0o777) -> [String]? {
        var missing: [String] = []
        var current = path
        while !current.isEmpty, current != "/", access(current, F_OK) != 0 {
            missing.append(current)
            current = parent(current)
        }
        var made: [String] = []
        for folder in missing.reversed() {
            guard mkdir(folder, mode) == 0 || errno == EEXIST else {
                for done in made.reversed() { rmdir(done) }
                return nil
            }
            made.append(folder)
        }
        return made
    }

    /// Without its extension: `api.yaml` → `api`.
    package static func stem(_ name: String) -> String {
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return name }
        return String(name[..<dot])
    }

    /// The extension, lower-cased, without the dot (`png`), or ``.
    package static func pathExtension(_ name: String) -> String {
        let last = lastComponent(name)
        guard let dot = last.lastIndex(of: "."), dot != last.startIndex else { return "" }
        return last[last.index(after: dot)...].lowercased()
    }

    package static func isDirectory(_ path: String) -> Bool { kind(path) == S_IFDIR }
    package static func isReadable(_ path: String) -> Bool { access(path, R_OK) == 0 }

    /// The size in bytes of what is at `path`, or nil.
    package static func size(_ path: String) -> Int64? {
        var info = stat()
        return stat(path, &info) == 0 ? Int64(info.st_size) : nil
    }
    package static func isRegularFile(_ path: String) -> Bool { kind(path) == S_IFREG }
    package static func exists(_ path: String) -> Bool { kind(path) != nil }

    private static func kind(_ path: String) -> mode_t? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return info.st_mode & S_IFMT
    }

    /// `$TMPDIR`, else `/tmp`.
    package static var temporaryDirectory: String {
        getenv("TMPDIR").map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
    }
}

/// `read` and `write` of the C library, named apart from methods called `read` and `write`.
package enum POSIX {
    package static func write(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
        #if canImport(Glibc)
        Glibc.write(fd, buffer, count)
        #else
        Darwin.write(fd, buffer, count)
        #endif
    }

    package static func read(_ fd: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
        #if canImport(Glibc)
        Glibc.read(fd, buffer, count)
        #else
        Darwin.read(fd, buffer, count)
        #endif
    }
}
