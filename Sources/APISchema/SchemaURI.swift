#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// URI-references as JSON Schema uses them (`$id`, `$ref`): resolution against a base (RFC 3986
/// §5.2, enough for http(s), file and urn bases), the fragment split off, JSON Pointer escapes.
package enum SchemaURI {
    /// `ref` resolved against `base` (both may carry a fragment; the result keeps `ref`'s).
    static func resolve(_ ref: String, against base: String) -> String {
        if ref.isEmpty { return stripFragment(base) }
        if hasScheme(ref) { return ref }
        let baseNoFrag = stripFragment(base)
        if ref.hasPrefix("#") { return baseNoFrag + ref }
        guard let authorityEnd = hierarchyStart(baseNoFrag) else {
            return ref  // a urn base cannot have relative references
        }
        if ref.hasPrefix("//") {
            return String(baseNoFrag.prefix(while: { $0 != ":" })) + ":" + ref
        }
        let prefix = String(baseNoFrag[..<authorityEnd])
        var basePath = String(baseNoFrag[authorityEnd...])
        if let q = basePath.firstIndex(of: "?") { basePath = String(basePath[..<q]) }
        var refPath = ref
        var tail = ""
        if let cut = refPath.firstIndex(where: { $0 == "?" || $0 == "#" }) {
            tail = String(refPath[cut...])
            refPath = String(refPath[..<cut])
        }
        let merged: String
        if refPath.hasPrefix("/") {
            merged = refPath
        } else if refPath.isEmpty {
            merged = basePath
        } else if let slash = basePath.lastIndex(of: "/") {
            merged = String(basePath[...slash]) + refPath
        } else {
            merged = "/" + refPath
        }
        return prefix + removeDots(merged) + tail
    }

    static func stripFragment(_ uri: String) -> String {
        guard let hash = uri.firstIndex(of: "#") else { return uri }
        return String(uri[..<hash])
    }

    static func fragment(_ uri: String) -> String? {
        guard let hash = uri.firstIndex(of: "#") else { return nil }
        return percentDecoded(String(uri[uri.index(after: hash)...]))
    }

    static func hasScheme(_ s: String) -> Bool {
        guard let colon = s.firstIndex(of: ":"), colon != s.startIndex else { return false }
        let scheme = s[..<colon]
        return scheme.first!.isLetter && scheme.allSatisfy { $0.isLetter || $0.isNumber || "+-.".contains($0) }
    }

    /// Where the path starts in `scheme://authority/path` (nil for `urn:` and other opaque URIs).
    private static func hierarchyStart(_ uri: String) -> String.Index? {
        guard let range = uri.firstRange(of: "://") else {
            if uri.hasPrefix("file:/") { return uri.index(uri.startIndex, offsetBy: 5) }
            return nil
        }
        return uri[range.upperBound...].firstIndex(of: "/") ?? uri.endIndex
    }

    private static func removeDots(_ path: String) -> String {
        var out: [Substring] = []
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        for (i, part) in parts.enumerated() {
            if part == "." { if i == parts.count - 1 { out.append("") }; continue }
            if part == ".." {
                if out.count > 1 { out.removeLast() }
                if i == parts.count - 1 { out.append("") }
                continue
            }
            out.append(part)
        }
        return out.joined(separator: "/")
    }

    /// `/a~1b/0` → ["a/b", "0"]; nil when it is not a pointer.
    package static func pointer(_ fragment: String) -> [String]? {
        if fragment.isEmpty { return [] }
        guard fragment.hasPrefix("/") else { return nil }
        let steps = fragment.dropFirst().split(separator: "/", omittingEmptySubsequences: false)
        guard fragment.utf8.contains(UInt8(ascii: "~")) else { return steps.map(String.init) }
        return steps.map(unescape)
    }

    /// The pointer text for `steps` (the inverse of `pointer`).
    package static func escapedPointer(_ steps: [String]) -> String {
        steps.map { "/" + escape($0) }.joined()
    }

    /// `~1` → `/`, `~0` → `~` (in that order of meaning: `~01` is `~1`), in one pass.
    static func unescape(_ token: Substring) -> String {
        guard token.utf8.contains(UInt8(ascii: "~")) else { return String(token) }
        var out: [UInt8] = []
        out.reserveCapacity(token.utf8.count)
        var tilde = false
        for b in token.utf8 {
            if tilde {
                switch b {
                case UInt8(ascii: "1"): out.append(UInt8(ascii: "/"))
                case UInt8(ascii: "0"): out.append(UInt8(ascii: "~"))
                case UInt8(ascii: "~"): out.append(UInt8(ascii: "~")); continue  // (not a pointer's escape; kept)
                default: out += [UInt8(ascii: "~"), b]
                }
                tilde = false
            } else if b == UInt8(ascii: "~") {
                tilde = true
            } else {
                out.append(b)
            }
        }
        if tilde { out.append(UInt8(ascii: "~")) }
        return String(decoding: out, as: UTF8.self)
    }

    package static func escape(_ token: String) -> String {
        // (Most tokens need nothing: `replacing` on each was a quarter of a large import's time.)
        guard token.utf8.contains(where: { $0 == UInt8(ascii: "~") || $0 == UInt8(ascii: "/") }) else { return token }
        // (Paths and media types all hold a `/`: one pass over the bytes, not two `replacing`s.)
        var out: [UInt8] = []
        out.reserveCapacity(token.utf8.count + 8)
        for b in token.utf8 {
            switch b {
            case UInt8(ascii: "~"): out += [UInt8(ascii: "~"), UInt8(ascii: "0")]
            case UInt8(ascii: "/"): out += [UInt8(ascii: "~"), UInt8(ascii: "1")]
            default: out.append(b)
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}

extension SchemaURI {
    /// `%2F` → `/`; nil when an escape is malformed.
    static func percentDecoded(_ text: String) -> String? {
        guard text.contains("%") else { return text }
        var bytes: [UInt8] = []
        var it = Array(text.utf8)[...]
        while let b = it.popFirst() {
            if b == UInt8(ascii: "%") {
                guard it.count >= 2, let v = UInt8(String(decoding: it.prefix(2), as: UTF8.self), radix: 16) else { return nil }
                bytes.append(v)
                it = it.dropFirst(2)
            } else {
                bytes.append(b)
            }
        }
        return String(validating: bytes, as: UTF8.self)
    }
}
