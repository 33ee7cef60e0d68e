import APISupport
import APIDiagnostics
import APITargets
import APITransport
import APIVerdict
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `until:`: the exchange is repeated until its response meets the condition. Each attempt is a
/// whole exchange (plugins, `-v`, the run's cookies); between attempts it waits `every`, or the
/// response's `Retry-After` (never past the end). `failIf` holding stops at once.
enum Polling {
    /// The exchange that met `until.expect` (or why none did), and every attempt's status and time.
    static func run(_ until: Until, target: String, send: () async throws(APIError) -> Exchange)
        async -> (Result<Exchange, APIError>, [Attempt]) {
        let start = monotonicSeconds()
        var attempts: [Attempt] = []
        while true {
            let exchange: Exchange
            do throws(APIError) {
                exchange = try await send()
            } catch {
                attempts.append(.init(status: nil, duration: monotonicSeconds() - start, error: error.summary))
                return (.failure(error), attempts)
            }
            let r = exchange.response
            attempts.append(.init(status: r.status, duration: r.duration, error: nil))
            let unmet = Judge.failures(until.expect, validation: .none, response: r)
            if unmet.isEmpty { return (.success(exchange), attempts) }
            if let failIf = until.failIf, Judge.failures(failIf, validation: .none, response: r).isEmpty {
                return (.failure(.stopped("\(target): failIf: holds after \(attempts.count) attempt\(attempts.count == 1 ? "" : "s") "
                                          + "(until: still waits for: \(unmet[0]))")), attempts)
            }
            let elapsed = monotonicSeconds() - start
            let left = until.within - elapsed
            let retryAfter = r.headers.value(of: "Retry-After").flatMap { SendPolicy.retryAfter($0, now: Date()) }
            let wait = min(retryAfter ?? until.every, max(left, 0))
            guard left > 0, elapsed + wait < until.within else { return (.failure(.timedOut(until.within)), attempts) }
            try? await Task.sleep(nanoseconds: UInt64(wait * 1e9))
        }
    }
}
