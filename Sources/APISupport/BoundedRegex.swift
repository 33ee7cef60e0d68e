import Dispatch
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `expect: { body: { matches: } }` with a bound on time: every evaluation, whatever the size of
/// the text (`^(a+)+$` backtracks for minutes on 24 bytes), gets `limit` seconds on a thread of
/// its own, then the check fails saying so. Swift Regex has no time limit and cannot be
/// cancelled: such a thread runs on until the process ends (apicli never waits for it).
package enum BoundedRegex {
    package enum Outcome: Equatable {
        case found, notFound, invalid
        case tooSlow(Double)
    }

    static let limit = 5.0

    package static func firstMatch(_ pattern: String, in text: String, limit: Double = limit) -> Outcome {
        guard let compiled = try? Regex(pattern) else { return .invalid }
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

/// Work on a POSIX thread of its own, detached: never on a shared dispatch queue, whose few
/// threads a regex that never ends would take for good (then every later match would starve).
package enum Detached {
    private final class Work {
        let body: @Sendable () -> Void
        init(_ body: @escaping @Sendable () -> Void) { self.body = body }
    }

    package static func run(_ body: @escaping @Sendable () -> Void) {
        let context = Unmanaged.passRetained(Work(body)).toOpaque()
        var thread = pthread_t()
        let started = pthread_create(&thread, nil, { raw in
            let work = Unmanaged<Work>.fromOpaque(raw!).takeRetainedValue()
            work.body()
            return nil
        }, context)
        if started == 0 {
            pthread_detach(thread)
        } else {
            Unmanaged<Work>.fromOpaque(context).takeRetainedValue().body()  // no thread to be had: run it here
        }
    }
}
