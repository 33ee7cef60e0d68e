import APISupport
import APITargets
import APITransport
import APILoad
import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `apicli load`'s flags read and range-checked (a problem is exit 64 before anything is sent).
struct LoadFlags {
    var model: LoadPlan.Model
    /// Seconds; nil with neither --duration nor --requests too (`LoadPlan.defaultDuration`).
    var duration: Double?
    var requests: Int?
    var weights: [String: Int] = [:]
    var thresholds: [LoadThreshold] = []
    var shard: Shard.Request?
    /// Unix seconds.
    var startAt: Double?
    /// `--all`: targets `Selection.leftOut` leaves out are loaded too.
    var all = false
    /// `--max-body`, or the run's default.
    var maxBody: Int64 = LoadPlan.defaultMaxBody
    /// `--metrics`: where to serve the live metrics.
    var metrics: (host: String, port: Int)?
    /// `--metrics-linger`, seconds.
    var metricsLinger: Double = 0
    /// `--data`, `--data-order`, `--seed`.
    var data: String?
    var rowOrder: LoadPlan.RowOrder = .roundRobin

    static let maxSeconds = Durations.maxSeconds

    /// What the run asks of the files (`LoadSetup`).
    func request(_ patterns: [String]) -> LoadSetup.Request {
        var request = LoadSetup.Request(patterns: patterns, model: model, duration: duration, requests: requests, weights: weights,
                                        thresholds: thresholds, all: all)
        (request.data, request.rowOrder) = (data, rowOrder)
        return request
    }

    init(_ c: APICLI.Load) throws {
        all = c.all
        func seconds(_ text: String?, _ flag: String, zero: Bool, max: Double) throws -> Double? {
            guard let text else { return nil }
            guard let s = LoadPlan.seconds(text), s.isFinite, zero ? s >= 0 : s > 0, s <= max else {
                throw ValidationError("\(flag) takes a duration \(zero ? "from 0" : "above 0") up to \(Text.duration(max)), like 30s or 500ms, got '\(text)'")
            }
            return s
        }
        duration = try seconds(c.duration, "--duration", zero: false, max: Self.maxSeconds)
        if let n = c.requests, !(1...LoadPlan.maxRequests).contains(n) {
            throw ValidationError("--requests takes 1 to \(LoadPlan.maxRequests), got \(n)")
        }
        requests = c.requests
        let think = try seconds(c.think, "--think", zero: true, max: 3600) ?? 0
        if c.users != nil && (c.rate != nil || c.ramp != nil) {
            throw ValidationError("--users (closed model) does not go with --rate or --ramp (open model); pick one")
        }
        if c.rate != nil && c.ramp != nil { throw ValidationError("--rate and --ramp both set the rate; give one (a ramp's last rate holds)") }
        if !(1...100_000).contains(c.maxInFlight) { throw ValidationError("--max-in-flight takes 1 to 100000, got \(c.maxInFlight)") }
        if let rate = c.rate {
            guard let r = RateSchedule.parseRate(rate), r > 0 else {
                throw ValidationError("--rate takes requests a second above 0 and up to \(Int(RateSchedule.maxRate)), like 500/s or 6000/m, got '\(rate)'")
            }
            if c.think != nil { throw ValidationError("--think is for the closed model (--users)") }
            model = .open(RateSchedule(constant: r), maxInFlight: c.maxInFlight)
        } else if let ramp = c.ramp {
            switch RateSchedule.parseRamp(ramp) {
            case .success(let s): model = .open(s, maxInFlight: c.maxInFlight)
            case .failure(let p): throw ValidationError("--ramp: " + p.message)
            }
            if c.think != nil { throw ValidationError("--think is for the closed model (--users)") }
        } else {
            let users = c.users ?? 1
            guard (1...LoadPlan.maxUsers).contains(users) else {
                throw ValidationError("--users takes 1 to \(LoadPlan.maxUsers), got \(users)")
            }
            model = .closed(users: users, think: think)
        }
        for w in c.weight {
            let parts = w.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2, let n = Int(parts[1]), LoadSettings.weights.contains(n), parts[0].contains(".") else {
                throw ValidationError("--weight takes service.target=n with n from 1 to \(LoadSettings.weights.upperBound), got '\(w)'")
            }
            weights[parts[0]] = n
        }
        for t in c.threshold {
            switch LoadThreshold.parse(t, source: "--threshold '\(t)'") {
            case .success(let th): thresholds.append(th)
            case .failure(let p): throw ValidationError("--threshold: " + p.message)
            }
        }
        if let n = c.maxBody {
            guard n >= 1 else { throw ValidationError("--max-body takes a number of bytes of at least 1, got \(n)") }
            maxBody = n
        }
        if let text = c.metrics {
            guard let address = LoadMetricsServer.address(text) else {
                throw ValidationError("--metrics takes an address of this machine and a port (0 to 65535), like 127.0.0.1:9464, :9464 "
                                      + "(loopback), [::1]:9464, 0.0.0.0:9464 (every address) or :0 (a free port), got '\(text)'")
            }
            metrics = address
        }
        metricsLinger = try seconds(c.metricsLinger, "--metrics-linger", zero: true, max: 3600) ?? 0
        if c.metricsLinger != nil && c.metrics == nil { throw ValidationError("--metrics-linger goes with --metrics") }
        if c.jsonl?.isEmpty == true { throw ValidationError("--jsonl takes a file name, or - for stdout") }
        shard = try ShardOption.parse(c.shard)
        data = c.data
        switch c.dataOrder {
        case nil, "round-robin"?: if c.seed != nil { throw ValidationError("--seed is for --data-order random") }
        case "random"?: rowOrder = .random(seed: c.seed ?? UInt64.random(in: 0...UInt64.max))
        case let other?: throw ValidationError("--data-order takes round-robin or random, got '\(other)'")
        }
        if let text = c.startAt {
            let now = Date().timeIntervalSince1970
            let value = Double(text) ?? (try? Date(text, strategy: .iso8601))?.timeIntervalSince1970
            guard let value, value.isFinite, abs(value - now) <= 86_400 else {
                throw ValidationError("--start-at takes a time within a day of now, as Unix seconds or 2026-01-02T15:04:05Z, got '\(text)'")
            }
            startAt = value
        }
    }
}
