/// A header name and a final value.
package struct HeaderField: Sendable, Equatable {
    package var name: String
    package var value: String

    package init(_ name: String, _ value: String) {
        self.name = name
        self.value = value
    }
}

extension Array where Element == HeaderField {
    /// Sets `name` (case-insensitively) to `value`: replaces the existing field in place, or appends.
    package mutating func set(_ name: String, _ value: String) {
        if let i = firstIndex(where: { $0.name.equalsIgnoringCase(name) }) {
            self[i] = HeaderField(name, value)
        } else {
            append(HeaderField(name, value))
        }
    }

    package func value(of name: String) -> String? {
        first { $0.name.equalsIgnoringCase(name) }?.value
    }
}

extension HeaderField {
    /// Whether header name `a` sorts before `b`, ASCII letters compared without case (the order of
    /// a response's fields), without lowering either.
    package static func nameOrder(_ a: String, _ b: String) -> Bool {
        // The bytes in place (a native or small string: every name NIO's decoder makes), not an
        // iterator over each UTF-8 view: a response's head is sorted once per request.
        if let order = a.utf8.withContiguousStorageIfAvailable({ x in
            b.utf8.withContiguousStorageIfAvailable { y in nameOrder(x, y) }
        }), let order {
            return order
        }
        var x = a.utf8.makeIterator(), y = b.utf8.makeIterator()
        while true {
            guard let p = x.next() else { return y.next() != nil }
            guard let q = y.next() else { return false }
            if Text.lower(p) != Text.lower(q) { return Text.lower(p) < Text.lower(q) }
        }
    }

    private static func nameOrder(_ x: UnsafeBufferPointer<UInt8>, _ y: UnsafeBufferPointer<UInt8>) -> Bool {
        for i in 0..<Swift.min(x.count, y.count) where Text.lower(x[i]) != Text.lower(y[i]) {
            return Text.lower(x[i]) < Text.lower(y[i])
        }
        return x.count < y.count
    }

    /// The first character a header value may not hold (a line break, another C0 control, DEL),
    /// or nil: the one rule the resolver, the importers and the mock apply. A tab is allowed.
    package static func forbiddenCharacter(in value: String) -> Unicode.Scalar? {
        value.utf8.withContiguousStorageIfAvailable { forbiddenCharacter(in: UnsafeRawBufferPointer($0)) }
            ?? Array(value.utf8).withUnsafeBytes { forbiddenCharacter(in: $0) }
    }

    /// `forbiddenCharacter(in:)` of a value's UTF-8 bytes: byte by byte, as every such character is
    /// one byte in UTF-8 and no byte of a longer character is below 0x80 (a scalar iterator decodes
    /// each character: it ran for every field of every request sent).
    package static func forbiddenCharacter(in bytes: UnsafeRawBufferPointer) -> Unicode.Scalar? {
        bytes.first { ($0 < 0x20 && $0 != 0x09) || $0 == 0x7F }.map { Unicode.Scalar($0) }
    }
}
