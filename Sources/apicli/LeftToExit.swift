/// What a command leaves to the operating system: `validate` and `list` exit right after their
/// output, and freeing the graph of a large catalog (its services and their YAML trees) one object
/// at a time costs more than a tenth of their run. Kept values are never freed; call this only
/// with values a command holds until it returns, at its end.
enum LeftToExit {
    static func keep<T>(_ value: T) {
        _ = Unmanaged.passRetained(Box(value))
    }

    private final class Box<T> {
        let value: T
        init(_ value: T) { self.value = value }
    }
}
