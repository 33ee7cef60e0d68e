/// A header name and a final value.
public struct HeaderField: Sendable, Equatable {
    public var name: String
    public var value: String

    public init(_ name: String, _ value: String) {
        self.name = name
        self.value = value
    }
}

extension Array where Element == HeaderField {
    /// Sets `name` (case-insensitively) to `value`: replaces the existing field in place, or appends.
    public mutating func set(_ name: String, _ value: String) {
        if let i = firstIndex(where: { $0.name.equalsIgnoringCase(name) }) {
            self[i] = HeaderField(name, value)
        } else {
            append(HeaderField(name, value))
        }
    }

    public func value(of name: String) -> String? {
        first { $0.name.equalsIgnoringCase(name) }?.value
    }
}
