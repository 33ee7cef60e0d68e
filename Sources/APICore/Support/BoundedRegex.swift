import Dispatch

/// `expect: { body: { matches: } }` with a bound on time: a pattern that backtracks
/// catastrophically on a large body (Swift Regex has no time limit and cannot be cancelled) gets
/// `limit` seconds on a thread of its own, then the check fails saying so; the thread runs on
/// until the process ends (apicli is a short-lived process; it never waits for it).
enum BoundedRegex {
    enum Outcome: Equatable {
        case found, notFound, invalid
        case tooSlow(Double)
    }

    static let limit = 5.0

    static func firstMatch(_ pattern: String, in text: String, limit: Double = limit) -> Outcome {
        guard let compiled = try? Regex(pattern) else { return .invalid }
        // Small bodies cannot take long enough to matter: no thread.
        if text.utf8.count <= 4096 { return (try? compiled.firstMatch(in: text)) != nil ? .found : .notFound }
        let done = DispatchSemaphore(value: 0)
        let result = Locked<Outcome?>(nil)
        nonisolated(unsafe) let regex = compiled  // used by that one thread only
        Detached.run {
            result.set((try? regex.firstMatch(in: text)) != nil ? .found : .notFound)
            done.signal()
        }
        guard done.wait(timeout: .now() + limit) == .success else { return .tooSlow(limit) }
        return result.current ?? .notFound
    }
}

/// Work run off the caller's thread, on a global dispatch queue, that the caller may stop waiting
/// for (Foundation's Thread is not imported).
enum Detached {
    static func run(_ body: @escaping @Sendable () -> Void) {
        DispatchQueue.global().async(execute: body)
    }
}
