import APISupport
import Atomics
import Dispatch
import NIOCore

/// The mock's open connections, up to `limit`. At the limit a newcomer is let in by closing the
/// connection that has been idle longest (between requests, or never sent one): idle clients can
/// hold every slot only until someone needs one, as nginx reuses keep-alive connections. Only when
/// every connection is in the middle of a request is the newcomer closed.
final class MockConnections: Sendable {
    /// One open connection. Its handler marks it busy or idle in the slot (an atomic), not under
    /// the table's lock: connections on different event loops do not wait for each other on every request.
    final class Slot: Sendable {
        let channel: any Channel
        /// When it went idle (uptime nanoseconds, at least 1); 0 while a request is being answered.
        fileprivate let idleSince: ManagedAtomic<UInt64>

        fileprivate init(channel: any Channel, idleSince: UInt64) {
            self.channel = channel
            self.idleSince = ManagedAtomic(max(idleSince, 1))
        }

        /// A request started (`true`) or its response went out (`false`: idle from now).
        func busy(_ busy: Bool) {
            idleSince.store(busy ? 0 : max(DispatchTime.now().uptimeNanoseconds, 1), ordering: .relaxed)
        }

        /// Its response went out: idle since `uptime` (nanoseconds, the clock of `DispatchTime`).
        func idle(since uptime: UInt64) {
            idleSince.store(max(uptime, 1), ordering: .relaxed)
        }

        /// When it went idle; nil while a request is being answered.
        fileprivate var idle: UInt64? {
            let since = idleSince.load(ordering: .relaxed)
            return since == 0 ? nil : since
        }
    }

    let limit: Int
    private let entries = Locked<[ObjectIdentifier: Slot]>([:])

    init(limit: Int) {
        self.limit = limit
    }

    /// The slot of `channel` when it may stay open (then it is counted until `closed`), else nil.
    func admit(_ channel: any Channel) -> Slot? {
        let slot = Slot(channel: channel, idleSince: DispatchTime.now().uptimeNanoseconds)
        let (admitted, evicted) = entries.withLock { open -> (Bool, (any Channel)?) in
            var victim: (any Channel)?
            if open.count >= limit {
                let idle = open.compactMap { key, slot in slot.idle.map { (key: key, since: $0, channel: slot.channel) } }
                guard let oldest = idle.min(by: { $0.since < $1.since }) else { return (false, nil) }
                open[oldest.key] = nil
                victim = oldest.channel
            }
            open[ObjectIdentifier(channel)] = slot
            return (true, victim)
        }
        evicted?.close(promise: nil)
        return admitted ? slot : nil
    }

    func closed(_ channel: any Channel) {
        entries.withLock { $0[ObjectIdentifier(channel)] = nil }
    }
}
