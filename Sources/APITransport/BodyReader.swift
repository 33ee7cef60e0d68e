import APISupport
import APIDiagnostics
import APIEndpoint
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

/// A request body measured before it is sent: each piece with its size, so the transport can send
/// a `Content-Length` and then read the files a chunk at a time (never the whole file in memory).
package struct SizedBody: Sendable {
    package struct Piece: Sendable {
        package var piece: BodyPiece
        package var size: Int64
    }

    package var pieces: [Piece]
    package var length: Int64 { pieces.reduce(0) { $0 + $1.size } }

    /// Measures every file now; a file that is missing or unreadable is bad input (exit 2).
    package init(_ body: PreparedRequest.Body) throws(APIError) {
        var out: [Piece] = []
        for piece in body.pieces {
            switch piece {
            case .bytes(let data): out.append(Piece(piece: piece, size: Int64(data.count)))
            case .file(let path): out.append(Piece(piece: piece, size: try Self.size(of: path)))
            }
        }
        pieces = out
    }

    /// The size of a regular file that can be read.
    package static func size(of path: String) throws(APIError) -> Int64 {
        var info = stat()
        guard stat(path, &info) == 0 else { throw unreadable(path) }
        guard info.st_mode & S_IFMT == S_IFREG else {
            throw .invalid(Diagnostic(file: nil, mark: nil, message: "cannot send \(path): it is not a regular file"))
        }
        guard access(path, R_OK) == 0 else { throw unreadable(path) }
        return Int64(info.st_size)
    }

    static func unreadable(_ path: String) -> APIError {
        .invalid(Diagnostic(file: nil, mark: nil, message: "cannot read \(path): \(String(cString: strerror(errno)))"))
    }
}

/// Reads a `SizedBody` front to back in chunks, opening each file when its turn comes. Each file
/// gives exactly the size measured before sending (a file that shrank meanwhile is an error;
/// bytes a growing file gained are not sent), so the body always matches its Content-Length.
/// Not thread-safe: one reader per transfer, used by one thread at a time.
package final class BodyReader: @unchecked Sendable {
    private let pieces: [SizedBody.Piece]
    private var index = 0
    /// Within the current piece.
    private var offset: Int64 = 0
    private var fd: Int32 = -1
    package private(set) var sent: Int64 = 0

    package init(_ body: SizedBody) {
        pieces = body.pieces
    }

    deinit {
        if fd >= 0 { close(fd) }
    }

    /// The next chunk of at most `limit` bytes, or nil at the end.
    package func next(limit: Int = 1 << 16) throws(APIError) -> Data? {
        var data = Data(count: limit)
        let result = data.withUnsafeMutableBytes { raw -> Result<Int, APIError> in
            do throws(APIError) { return .success(try read(into: raw)) } catch { return .failure(error) }
        }
        let n = try result.get()
        return n == 0 ? nil : (n == limit ? data : data.prefix(n))
    }

    /// Fills the start of `buffer` with the next bytes; returns how many (0 at the end).
    package func read(into buffer: UnsafeMutableRawBufferPointer) throws(APIError) -> Int {
        while index < pieces.count {
            let piece = pieces[index]
            let left = piece.size - offset
            if left == 0 {
                advance()
                continue
            }
            let count = Int(min(Int64(buffer.count), left))
            switch piece.piece {
            case .bytes(let data):
                let start = data.startIndex + Int(offset)
                data.copyBytes(to: buffer.bindMemory(to: UInt8.self).baseAddress!, from: start..<start + count)
            case .file(let path):
                try read(path, into: UnsafeMutableRawBufferPointer(rebasing: buffer[0..<count]))
            }
            offset += Int64(count)
            sent += Int64(count)
            return count
        }
        return 0
    }

    private func advance() {
        if fd >= 0 { close(fd) }
        fd = -1
        index += 1
        offset = 0
    }

    /// Fills all of `buffer` from the current file.
    private func read(_ path: String, into buffer: UnsafeMutableRawBufferPointer) throws(APIError) {
        if fd < 0 {
            fd = open(path, O_RDONLY)
            guard fd >= 0 else { throw SizedBody.unreadable(path) }
        }
        var done = 0
        while done < buffer.count {
            let n = POSIX.read(fd, buffer.baseAddress! + done, buffer.count - done)
            if n < 0 {
                if errno == EINTR { continue }
                throw SizedBody.unreadable(path)
            }
            if n == 0 {
                throw .invalid(Diagnostic(file: nil, mark: nil, message: "\(path) got shorter while it was being sent",
                                          hint: "do not change a file while apicli sends it"))
            }
            done += n
        }
    }
}

extension SizedBody {
    /// The whole body in memory (a multipart body with its files read): for a request that
    /// cannot stream it.
    package func data() throws(APIError) -> Data {
        let reader = BodyReader(self)
        var data = Data()
        while let chunk = try reader.next() { data += chunk }
        return data
    }
}
