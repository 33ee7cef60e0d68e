import APISupport
import APIDiagnostics
import APIEndpoint
import APITransport
import Dispatch
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A one-line progress bar for transfers that take a while: Moya's NetworkActivityPlugin
/// (began/ended) turned into something a terminal user sees. Nothing is drawn during the first
/// `delay` seconds, so quick calls stay silent; then the line is redrawn in place (`\r`) at most
/// every `interval` seconds with the bytes moved, the total when known, the rate and the time
/// left; it is erased when the response is in. Like every plugin it never prints: text goes to
/// `sink`, which the executable points at stderr only when stderr is a terminal (and not `--quiet`).
package struct ProgressPlugin: Plugin {
    package var delay: Double
    package var interval: Double
    package var clock: @Sendable () -> Double
    package var sink: @Sendable (String) -> Void
    private let state = Locked(State())

    package init(delay: Double = 1, interval: Double = 0.1, clock: @escaping @Sendable () -> Double = ProgressPlugin.now,
                sink: @escaping @Sendable (String) -> Void) {
        self.delay = delay
        self.interval = interval
        self.clock = clock
        self.sink = sink
    }

    /// Monotonic seconds.
    package static let now: @Sendable () -> Double = { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }

    package func willSend(_ request: PreparedRequest) {
        let now = clock()
        state.withLock { $0 = State(start: now) }
    }

    package func progress(_ progress: TransferProgress, for request: PreparedRequest) {
        let now = clock()
        if let line = state.withLock({ $0.update(progress, at: now, delay: delay, interval: interval) }) {
            sink("\r" + line + "\u{1B}[K")
        }
    }

    package func didReceive(_ result: Result<Response, APIError>, for request: PreparedRequest) {
        if state.withLock({ $0.end() }) { sink("\r\u{1B}[K") }
    }

    /// `↓ 45.2 MiB / 200.0 MiB  22% [====>               ]  38.1 MiB/s  ETA 0:04`; without a
    /// total, `↓ 45.2 MiB  38.1 MiB/s`. `seconds` is the time since this direction's first byte.
    package static func line(_ p: TransferProgress, seconds: Double) -> String {
        let arrow = p.direction == .upload ? "↑" : "↓"
        let rate = seconds > 0 ? Double(p.bytes) / seconds : 0
        let speed = rate > 0 ? "  \(size(Int64(rate)))/s" : ""
        guard let total = p.total, total > 0 else { return "\(arrow) \(size(p.bytes))\(speed)" }
        let fraction = min(1, Double(p.bytes) / Double(total))
        let filled = Int(fraction * 20)
        let bar = String(repeating: "=", count: filled) + (filled < 20 ? ">" + String(repeating: " ", count: 19 - filled) : "")
        let eta = rate > 0 && p.bytes < total ? "  ETA \(clockTime(Double(total - p.bytes) / rate))" : ""
        let percent = String(Int(fraction * 100)).leftPadded(to: 3)
        return "\(arrow) \(size(p.bytes)) / \(size(total)) \(percent)% [\(bar)]\(speed)\(eta)"
    }

    /// `512 B`, `1.5 KiB`, `45.2 MiB`, `1.0 GiB`.
    package static func size(_ bytes: Int64) -> String {
        let units = ["KiB", "MiB", "GiB", "TiB"]
        guard bytes >= 1024 else { return "\(bytes) B" }
        var value = Double(bytes) / 1024
        var unit = 0
        while value >= 1024, unit < units.count - 1 {
            value /= 1024
            unit += 1
        }
        return Text.fixed(value, 1) + " " + units[unit]
    }

    /// `0:04`, `12:30`, `1:02:03`.
    static func clockTime(_ seconds: Double) -> String {
        let s = Int(seconds.rounded(.up))
        let (h, m, r) = (s / 3600, (s % 3600) / 60, s % 60)
        let two = { (n: Int) in n < 10 ? "0\(n)" : "\(n)" }
        return h > 0 ? "\(h):\(two(m)):\(two(r))" : "\(m):\(two(r))"
    }

    /// What has been drawn, shared by the hooks (called from any thread, behind a lock).
    private struct State {
        var start = 0.0
        var lastDraw = -Double.infinity
        var drawn = false
        var firstByte: [TransferProgress.Direction: Double] = [:]

        /// The line to draw now, if any.
        mutating func update(_ p: TransferProgress, at now: Double, delay: Double, interval: Double) -> String? {
            let since = firstByte[p.direction] ?? now
            firstByte[p.direction] = since
            let complete = p.total.map { p.bytes >= $0 } ?? false
            guard now - start >= delay, now - lastDraw >= interval || (complete && drawn) else { return nil }
            lastDraw = now
            drawn = true
            return ProgressPlugin.line(p, seconds: now - since)
        }

        /// Whether a line is on screen (to erase).
        mutating func end() -> Bool {
            defer { drawn = false }
            return drawn
        }
    }
}
