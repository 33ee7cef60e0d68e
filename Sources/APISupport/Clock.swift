import Dispatch

/// Seconds on the monotonic clock: deadlines, load schedules and child-process timeouts.
package func monotonicSeconds() -> Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }
