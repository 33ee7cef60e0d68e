import APISupport
import Dispatch
import NIOCore

/// The mock's open connections, up to `limit`. At the limit a newcomer is let in by closing the
/// connection that has been idle longest (between requests, or never sent one): idle clients can
/// hold every slot only until someone needs one, as nginx reuses keep-alive connections. Only when
/// every connection is in the middle of a request is the newcomer closed.
final class MockConnections: Sendable {
    /// One open connection. Its handler marks it busy or idle under the slot's own lock, not the
    /// table's: connections on different event loops do not wait for each other on every request.
    final class Slot: Sendable {
        let channel: any Channel
        /// When it went idle (uptime nanoseconds); nil while a request is being answered.
        fileprivate let idleSince: Locked<UInt64?>

        fileprivate init(channel: any Channel, idleSince: UInt64) {
            self.channel = channel
            self.idleSince = Locked(idleSince)
        }

        /// A request started (`true`) or its response went out (`false`: idle from now).
        func busy(_ busy: Bool) {
            let now: UInt64? = busy ? nil : DispatchTime.now().uptimeNanoseconds
            idleSince.set(now)
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
                let idle = open.compactMap { key, slot in slot.idleSince.current.map { (key: key, since: $0, channel: slot.channel) } }
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
