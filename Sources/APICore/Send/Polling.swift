import Dispatch

/// `until:`: the exchange is repeated until its response meets the condition. Each attempt is a
/// whole exchange (plugins, `-v`, the run's cookies); between attempts it waits `every`, or the
/// response's `Retry-After` (never past the end). `failIf` holding stops at once.
public enum Polling {
    /// The exchange that met `until.expect` (or why none did), and every attempt's status and time.
    public static func run(_ until: Until, target: String, send: () async throws(APIError) -> Exchange)
        async -> (Result<Exchange, APIError>, [CheckResult.Attempt]) {
        let start = now()
        var attempts: [CheckResult.Attempt] = []
        while true {
            let exchange: Exchange
            do throws(APIError) {
                exchange = try await send()
            } catch {
                attempts.append(.init(status: nil, duration: now() - start, error: CheckRunner.message(error)))
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
            let left = until.within - (now() - start)
            let retryAfter = r.headers.value(of: "Retry-After").flatMap { CheckRunner.retryAfter($0, now: .init()) }
            let wait = min(retryAfter ?? until.every, max(left, 0))
            guard left > 0, now() - start + wait < until.within else { return (.failure(.timedOut(until.within)), attempts) }
            try? await Task.sleep(nanoseconds: UInt64(wait * 1e9))
        }
    }

    static func now() -> Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }
}
