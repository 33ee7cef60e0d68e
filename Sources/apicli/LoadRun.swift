import APISupport
import APIDiagnostics
import APITargets
import APIEndpoint
import APITransport
import APISend
import APILoad
import APIImport
import ArgumentParser
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension APICLI.Load {
    /// A host outside loopback and the files' own baseURLs needs `--yes`: asked for on a terminal,
    /// refused without one.
    func confirmHosts(_ setup: LoadSetup, _ console: Console) throws {
        guard !yes, let first = setup.foreignHosts.first else { return }
        let hosts = setup.foreignHosts.joined(separator: ", ")
        if isatty(STDIN_FILENO) == 1, isatty(STDERR_FILENO) == 1 {
            console.err("apicli: load would go to \(hosts), which is not loopback and not a baseURL of the target files. Send it? [y/N] ")
            let answer = readLine()?.trimmingSpaces().lowercased() ?? ""
            if answer == "y" || answer == "yes" { return }
            console.err("apicli: nothing sent\n")
            throw ExitStatus.usage.code
        }
        console.err("apicli: load would go to \(first)\(setup.foreignHosts.count > 1 ? " and more (\(hosts))" : ""), which is not "
                    + "loopback and not a baseURL of the target files; pass --yes to send it\n")
        throw ExitStatus.usage.code
    }

    func execute(_ setup: LoadSetup, _ workspace: Workspace, _ flags: LoadFlags, _ console: Console) async throws {
        var plan = setup.plan
        var template = LoadResult()
        (template.model, template.load) = Self.describe(plan)  // the whole run's load, whichever shard this is
        template.thresholds = setup.thresholds
        do throws(APIError) {
            if let shard = try flags.shard?.resolve(ProcessEnvironment.all()) {
                plan = plan.share(shard)
                template.shard = shard
                console.err("apicli: shard \(shard.index)/\(shard.count) (\(shard.source)): \(Self.describe(plan).1)\n")
            }
        } catch {
            throw console.fail(error, target: nil)
        }
        let (watch, server, lines) = try await watching(plan, template, flags, console)
        let now = Date().timeIntervalSince1970
        if let at = flags.startAt {
            if at > now {
                if !quiet { console.err("apicli: starting at \(flags.startAt!) (in \(Text.fixed(at - now, 1)) s)\n") }
                try? await Task.sleep(nanoseconds: UInt64((at - now) * 1e9))
            } else if now - at > 1 {
                console.err("apicli: warning: --start-at was \(Text.fixed(now - at, 1)) s ago; starting now\n")
            }
        }
        template.startedAt = flags.startAt ?? now
        var workspace = setup.guarded(workspace)  // no redirect leaves loopback, the files' hosts and those consented to
        let policy = SendPolicy(retries: retries)
        if case .closed(let users, _) = plan.model {  // a connection per user, as wrk -cN
            workspace = workspace.connections(atLeast: users)
        }
        let runner = LoadRunner(plan: plan, start: monotonicSeconds(), template: template, watch: watch) { [workspace] in
            Caller(workspace: workspace, policy: policy)
        }
        let task = Task { () async throws(APIError) -> LoadResult in try await runner.run() }
        Terminal.onInterrupt {
            runner.stop("interrupted (Ctrl-C)")
            task.cancel()
        }
        let progress = Task { await showProgress(runner, plan, setup.thresholds, console) }
        let started = template  // its start and shard, for the lines
        let streaming = lines.map { file in Task { await Self.streamLines(runner, to: file, started) } }
        let result: LoadResult
        switch await task.result {
        case .success(let r): result = r
        case .failure(let error):
            progress.cancel()
            throw console.fail(error as? APIError ?? .output("\(error)"), target: nil)
        }
        progress.cancel()
        _ = await progress.value
        streaming?.cancel()
        var lineFailure = await streaming?.value
        if let lines, lineFailure == nil {  // the seconds not written yet, the last one's end included
            lineFailure = Self.write(runner.recorder.takeSeconds(through: nil), to: lines, template, watch)
        }
        var status: (any Error)?
        do { try finish(result, console, summaryToStderr: lines?.isStdout == true) } catch { status = error }
        if let lineFailure { status = console.fail(lineFailure, target: nil) }
        if let server {
            let interrupted = { runner.stopReason?.hasPrefix("interrupted") == true }  // Ctrl-C, in the run or in the linger
            await server.linger(flags.metricsLinger, while: { !interrupted() })
            await server.stop()
        }
        if let status { throw status }
    }

    /// `--metrics` and `--jsonl`: what watches the run (nil without either), the metrics server
    /// (listening from now, before a `--start-at` wait) and the lines' file, created now.
    private func watching(_ plan: LoadPlan, _ template: LoadResult, _ flags: LoadFlags,
                          _ console: Console) async throws -> (LoadWatch?, LoadMetricsServer?, LineFile?) {
        guard flags.metrics != nil || jsonl != nil else { return (nil, nil, nil) }
        var open = false
        if case .open = plan.model { open = true }
        var info = [("model", template.model), ("load", template.load)]
        if let shard = template.shard { info.append(("shard", "\(shard.index)/\(shard.count)")) }
        let metrics = flags.metrics.map { _ in LoadMetrics(names: plan.items.map(\.target.qualifiedName), open: open, info: info) }
        let watch = LoadWatch(metrics: metrics, seconds: jsonl != nil)
        do throws(APIError) {
            let lines = try jsonl.map { path throws(APIError) in try LineFile.create(path) }
            guard let address = flags.metrics, let metrics else { return (watch, nil, lines) }
            let server = try await LoadMetricsServer.start(host: address.host, port: address.port, metrics: metrics, watch: watch)
            console.err("apicli: metrics at \(server.url)\n")
            return (watch, server, lines)
        } catch {
            throw console.fail(error, target: nil)
        }
    }

    /// `--jsonl`: a second's line once it is over (and a quarter of a second more, for a closed-model
    /// user's batch to come in); the error that stopped the lines, if one did (the run stops too).
    private static func streamLines(_ runner: LoadRunner, to file: LineFile, _ template: LoadResult) async -> APIError? {
        var second = 0
        while !Task.isCancelled {
            let wait = runner.recorder.start + Double(second + 1) + 0.25 - monotonicSeconds()
            if wait > 0 { try? await Task.sleep(nanoseconds: UInt64(wait * 1e9)) }
            if Task.isCancelled { break }
            if let failure = write(runner.recorder.takeSeconds(through: second), to: file, template, runner.recorder.watch) {
                runner.stop("--jsonl cannot be written")
                return failure
            }
            second += 1
        }
        return nil
    }

    private static func write(_ seconds: [(second: Int, finished: LoadLiveSecond)], to file: LineFile, _ template: LoadResult,
                              _ watch: LoadWatch?) -> APIError? {
        let inFlight = watch?.requestsInFlight ?? 0
        for (k, finished) in seconds {
            let line = LoadLines.render(second: k, finished, startedAt: template.startedAt, shard: template.shard, inFlight: inFlight)
            do throws(APIError) { try file.write(line) } catch { return error }
        }
        return nil
    }

    /// The summary, the reports, and the exit code (130 stopped by Ctrl-C, 1 a threshold failed).
    func finish(_ result: LoadResult, _ console: Console, summaryToStderr: Bool = false) throws {
        let judged = LoadVerdict.judge(result.thresholds, result)
        if summaryToStderr { console.err(LoadText.summary(result, judged: judged)) } else { console.out(LoadText.summary(result, judged: judged)) }
        // Each report rendered only when asked for (rendering all three always made a peak at the
        // end of a run that grew with its length).
        let reports: [(String?, () -> String)] = [(json, { LoadJSON.render(result) }), (junit, { LoadText.junit(result, judged: judged) }),
                                                  (reportHTML, { LoadHTML.render(result, judged: judged) })]
        for (path, render) in reports {
            guard let path else { continue }
            do throws(APIError) { try OutputFile.write(Data(console.redactor.text(render()).utf8), to: path) } catch {
                throw console.fail(error, target: nil)
            }
        }
        if result.stopped?.hasPrefix("interrupted") == true { throw ExitStatus.interrupted.code }
        if judged.contains(where: { !$0.passed }) { throw ExitStatus.failed.code }
    }

    static func describe(_ plan: LoadPlan) -> (String, String) {
        switch plan.model {
        case let .closed(users, think):
            return ("closed", "\(users) user\(users == 1 ? "" : "s")" + (think > 0 ? ", think \(Text.duration(think))" : ""))
        case let .open(schedule, maxInFlight):
            let rate = { (r: Double) in Text.fixed(r, r == r.rounded() ? 0 : 2) + "/s" }
            let stages = schedule.stages.map { "\(rate($0.from).dropLast(2)):\(rate($0.to)) \(Text.duration($0.duration))" }
            return ("open", (stages.isEmpty ? rate(schedule.hold) : "ramp " + stages.joined(separator: ", "))
                    + ", at most \(maxInFlight) in flight")
        }
    }

    /// A live line on a terminal (stderr), a plain line every 2 s otherwise, none with -q; with
    /// `--abort-on-fail` the thresholds are judged at each tick.
    private func showProgress(_ runner: LoadRunner, _ plan: LoadPlan, _ thresholds: [LoadThreshold], _ console: Console) async {
        let tty = isatty(STDERR_FILENO) == 1
        let tick: Double = tty ? 0.5 : 2
        var last = ""
        while !Task.isCancelled {
            try? await Task.sleep(nanoseconds: UInt64(tick * 1e9))
            if Task.isCancelled { break }
            let p = runner.recorder.progress()
            if abortOnFail { runner.stopIfFailing(thresholds, requests: p.requests) }
            guard !quiet else { continue }
            var line = "\(Text.fixed(p.elapsed, 1)) s  \(p.requests) requests  \(Text.fixed(p.elapsed > 0 ? Double(p.requests) / p.elapsed : 0, 1))/s"
            if case .open(let schedule, _) = plan.model { line += " (asked \(Text.fixed(schedule.rate(at: p.elapsed), 1))/s)" }
            line += "  p95 \(LoadText.ms(p.p95)) ms  errors \(p.errors)"
            if tty { console.progress("\r\u{1B}[K" + line) } else { console.err("load: " + line + "\n") }
            last = line
        }
        if tty, !quiet, !last.isEmpty { console.progress("\r\u{1B}[K") }
    }
}
