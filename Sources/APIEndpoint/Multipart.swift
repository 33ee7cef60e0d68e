import APISupport
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A `multipart/form-data` body (RFC 7578) as data: its parts, in order, and the boundary that
/// separates them. Files are named, never read here: the transports stream them from disk.
package struct MultipartBody: Sendable, Equatable {
    package struct Part: Sendable, Equatable {
        package enum Content: Sendable, Equatable {
            /// A form value, sent as its UTF-8 bytes.
            case text(String)
            /// A file's bytes (absolute path, or relative to the working directory for `-F`).
            case file(String)
        }

        package var name: String
        package var content: Content
        /// The `filename` parameter; for a file, its last path component unless set.
        package var filename: String?
        /// The part's Content-Type; for a file, from its extension unless set. Value parts send none.
        package var type: String?

        package init(name: String, content: Content, filename: String? = nil, type: String? = nil) {
            self.name = name
            self.content = content
            self.filename = filename
            self.type = type
        }

        /// The filename that goes on the wire, if any.
        package var effectiveFilename: String? {
            if let filename { return filename }
            if case .file(let path) = content { return Path.lastComponent(path) }
            return nil
        }

        /// The Content-Type that goes on the wire, if any.
        package var effectiveType: String? {
            if let type { return type }
            if case .file(let path) = content { return MediaType.forPath(path) }
            return nil
        }
    }

    package var boundary: String
    package var parts: [Part]

    package init(boundary: String = MultipartBody.randomBoundary(), parts: [Part]) {
        self.boundary = boundary
        self.parts = parts
    }

    /// `multipart/form-data; boundary=…`.
    package var contentType: String { "multipart/form-data; boundary=\(boundary)" }

    /// 32 random hex digits behind a fixed prefix: never found in a body by chance.
    package static func randomBoundary() -> String {
        var generator = SystemRandomNumberGenerator()
        let digits = (0..<4).map { _ in String(generator.next() as UInt32, radix: 16) }
            .map { String(repeating: "0", count: 8 - $0.count) + $0 }.joined()
        return "apicli-" + digits
    }

    /// The body in order: literal bytes (delimiters, part headers, values) and whole files.
    package var pieces: [BodyPiece] {
        var out: [BodyPiece] = []
        var text = ""
        for part in parts {
            text += "--\(boundary)\r\n"
            text += "Content-Disposition: form-data; name=\"\(Self.quoted(part.name))\""
            if let filename = part.effectiveFilename { text += "; filename=\"\(Self.quoted(filename))\"" }
            text += "\r\n"
            if let type = part.effectiveType { text += "Content-Type: \(Self.headerSafe(type))\r\n" }
            text += "\r\n"
            switch part.content {
            case .text(let value):
                text += value
            case .file(let path):
                out.append(.bytes(Data(text.utf8)))
                text = ""
                out.append(.file(path))
            }
            text += "\r\n"
        }
        text += "--\(boundary)--\r\n"
        out.append(.bytes(Data(text.utf8)))
        return out
    }

    /// A name or filename inside quotes, as browsers write it (WHATWG): `"` → %22, CR → %0D, LF → %0A.
    static func quoted(_ s: String) -> String {
        mapScalars(s) { c in c == "\"" ? "%22" : c == "\r" ? "%0D" : c == "\n" ? "%0A" : nil }
    }

    /// A header value without line breaks.
    static func headerSafe(_ s: String) -> String {
        mapScalars(s) { c in c == "\r" || c == "\n" ? " " : nil }
    }

    /// `s` with each scalar `replacement` names replaced (scalars, not characters: CR LF is one
    /// Character but two scalars).
    private static func mapScalars(_ s: String, _ replacement: (Unicode.Scalar) -> String?) -> String {
        var out = ""
        for c in s.unicodeScalars {
            if let r = replacement(c) { out += r } else { out.unicodeScalars.append(c) }
        }
        return out
    }
}

/// A piece of a request body: bytes in memory, or a whole file read from disk as it is sent.
package enum BodyPiece: Sendable, Equatable {
    case bytes(Data)
    case file(String)
}

extension PreparedRequest.Body {
    /// The body as pieces, in order.
    package var pieces: [BodyPiece] {
        switch self {
        case .data(let data): return [.bytes(data)]
        case .file(let path): return [.file(path)]
        case .multipart(let body): return body.pieces
        }
    }

    /// The files the body reads, in order.
    package var files: [String] {
        pieces.compactMap { if case .file(let path) = $0 { return path } else { return nil } }
    }

    /// Whether the body comes (partly) from files: such bodies are streamed, never loaded whole.
    package var isStreamed: Bool { !files.isEmpty }
}

/// Content types for file extensions: the type a part or an upload gets when none is declared.
package enum MediaType {
    static let byExtension: [String: String] = [
        "txt": "text/plain", "text": "text/plain", "md": "text/markdown", "csv": "text/csv",
        "html": "text/html", "htm": "text/html", "css": "text/css", "xml": "application/xml",
        "json": "application/json", "yaml": "application/yaml", "yml": "application/yaml",
        "js": "text/javascript", "pdf": "application/pdf", "zip": "application/zip",
        "gz": "application/gzip", "tgz": "application/gzip", "tar": "application/x-tar",
        "gif": "image/gif", "png": "image/png", "jpg": "image/jpeg", "jpeg": "image/jpeg",
        "webp": "image/webp", "svg": "image/svg+xml", "ico": "image/vnd.microsoft.icon", "bmp": "image/bmp",
        "tif": "image/tiff", "tiff": "image/tiff", "mp3": "audio/mpeg", "wav": "audio/wav", "ogg": "audio/ogg",
        "mp4": "video/mp4", "webm": "video/webm", "mov": "video/quicktime", "wasm": "application/wasm",
    ]

    /// The type for a file name's extension (any case); `application/octet-stream` when unknown.
    package static func forPath(_ path: String) -> String {
        byExtension[Path.pathExtension(path)] ?? "application/octet-stream"
    }
}
