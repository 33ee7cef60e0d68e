import APISupport
import Dispatch
import NIOCore

/// The mock's open connections, up to `limit`. At the limit a newcomer is let in by closing the
/// connection that has been idle longest (between requests, or never sent one): idle clients can
/// hold every slot only until someone needs one, as nginx reuses keep-alive connections. Only when
/// every connection is in the middle of a request is the newcomer closed.
final class MockConnections: Sendable {
    private struct Entry {
        let channel: any Channel
        var idleSince: UInt64
        var busy: Bool
    }

    let limit: Int
    private let entries = Locked<[ObjectIdentifier: Entry]>([:])

    init(limit: Int) {
        self.limit = limit
    }

    /// Whether `channel` may stay open (then it is counted until `closed`).
    func admit(_ channel: any Channel) -> Bool {
        let now = DispatchTime.now().uptimeNanoseconds
        let (admitted, evicted) = entries.withLock { open -> (Bool, (any Channel)?) in
            var victim: (any Channel)?
            if open.count >= limit {
                guard let oldest = open.filter({ !$0.value.busy }).min(by: { $0.value.idleSince < $1.value.idleSince }) else {
                    return (false, nil)
                }
                open[oldest.key] = nil
                victim = oldest.value.channel
            }
            open[ObjectIdentifier(channel)] = Entry(channel: channel, idleSince: now, busy: false)
            return (true, victim)
        }
        evicted?.close(promise: nil)
        return admitted
    }

    func closed(_ channel: any Channel) {
        entries.withLock { $0[ObjectIdentifier(channel)] = nil }
    }

    /// A request started (`true`) or its response went out (`false`: idle from now).
    func busy(_ channel: any Channel, _ busy: Bool) {
        let now = DispatchTime.now().uptimeNanoseconds
        entries.withLock { open in
            guard var entry = open[ObjectIdentifier(channel)] else { return }
            entry.busy = busy
            if !busy { entry.idleSince = now }
            open[ObjectIdentifier(channel)] = entry
        }
    }
}
