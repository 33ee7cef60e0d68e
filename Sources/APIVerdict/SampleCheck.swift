import APISupport
import APIJSON
import APIDiagnostics
import APITargets
import APIEndpoint
import APITransport
/// Judges every sample of a service against its target's expectations, offline and without
/// waiting, as `apicli check --stub` does: with the validation and timeout the workspace gives the
/// target (project file, environment, rules), a delay beyond the timeout failing as a timeout.
/// For `apicli validate`: a sample that fails without `expectFailure: true`, or passes with it,
/// is a diagnostic at the sample.
package enum SampleCheck {
    package static func diagnostics(_ service: Service, workspace: Workspace) -> [Diagnostic] {
        let workspace = workspace.offline()  // nothing is sent: only what the samples use must be set
        let targets = service.targets.indices
        // Two halves at once when no secret command may run (each runs once per process, at its
        // first use). A target with a schema is left to after the halves (its patterns are compiled
        // lazily, not for two threads at once), and its diagnostics put back where it stands: each
        // target's diagnostics are its own, so the halves join in file order.
        guard targets.count >= bothCoresFrom, workspace.project.secrets.isEmpty else {
            return diagnostics(service, targets, workspace: workspace, leavingSchemas: false).out
        }
        let half = targets.lowerBound + targets.count / 2
        let (first, second) = BothCores.run({ diagnostics(service, targets.lowerBound..<half, workspace: workspace, leavingSchemas: true) },
                                            { diagnostics(service, half..<targets.upperBound, workspace: workspace, leavingSchemas: true) })
        return joined(first, service, workspace: workspace) + joined(second, service, workspace: workspace)
    }

    /// From this many targets in a service, `diagnostics` judges two halves at once.
    static let bothCoresFrom = 1_000

    /// The diagnostics of a range of targets, and the targets with a schema it left (`leavingSchemas`),
    /// each with the place in `out` its diagnostics go.
    struct Judged: Sendable {
        var out: [Diagnostic] = []
        var left: [(target: Int, at: Int)] = []
    }

    static func diagnostics(_ service: Service, _ indices: Range<Int>, workspace: Workspace, leavingSchemas: Bool) -> Judged {
        service.targets.withUnsafeBufferPointer { targets in
            var judged = Judged()
            var plain: Policy?  // the policy of the targets without validate:/timeout: of their own
            // Each target read in place, a field at a time (`let target = service.targets[i]` copied it whole).
            for i in indices {
                let target = targets.baseAddress! + i
                if leavingSchemas, Target.expectsSchema(at: target) {
                    judged.left.append((i, judged.out.count))
                    continue
                }
                diagnostics(service, target, workspace: workspace, plain: &plain, into: &judged.out)
            }
            return judged
        }
    }

    /// `judged`'s diagnostics with those of the targets it left, judged now, each where it stands.
    static func joined(_ judged: Judged, _ service: Service, workspace: Workspace) -> [Diagnostic] {
        guard !judged.left.isEmpty else { return judged.out }
        return service.targets.withUnsafeBufferPointer { targets in
            var out: [Diagnostic] = []
            var plain: Policy?
            var from = 0
            for (i, at) in judged.left {
                out += judged.out[from..<at]
                from = at
                diagnostics(service, targets.baseAddress! + i, workspace: workspace, plain: &plain, into: &out)
            }
            out += judged.out[from...]
            return out
        }
    }

    private static func diagnostics(_ service: Service, _ target: UnsafePointer<Target>, workspace: Workspace,
                                    plain: inout Policy?, into out: inout [Diagnostic]) {
        // Asked without a copy of the sample (`!= nil` copied it), and `expect:` copied out once.
        if case .none = target.pointee.sample, target.pointee.samples.isEmpty { return }
        let expect = target.pointee.expect
        let policy: Policy
        var bindings: Bindings?
        do throws(APIError) {
            policy = try workspace.policy(at: target, in: service, plain: &plain)
            // Params that expand to themselves cannot fail to: their bindings are made only for a
            // sample that expands something (`quickVerdict` judges the others without them).
            if !target.pointee.params.allSatisfy({ $0.value.expandsToItself }) {
                bindings = try workspace.bindings(at: target, in: service)
            }
        } catch {
            if case .invalidInput(let d) = error { out += d }
            return
        }
        // The default sample, then the named ones (`Target.allSamples`' order).
        func judge(_ name: String?, _ sample: Sample) {
            let verdict: Verdict
            if let quick = quickVerdict(sample, expect, policy) {
                verdict = quick
            } else {
                if bindings == nil {
                    do throws(APIError) { bindings = try workspace.bindings(at: target, in: service) } catch {
                        if case .invalidInput(let d) = error { out += d }
                        return
                    }
                }
                let stub = Workspace.stub(sample, bindings: bindings!, captures: [:], file: service.file)
                let answer = stub.answer(timeout: policy.timeout)
                if case .failure(.invalidInput(let d)) = answer {
                    out += d
                    return
                }
                verdict = Verdict.judge(answer, expect: expect, validation: policy.validation,
                                        expectFailure: sample.expectFailure)
            }
            guard !verdict.passed else { return }
            let what = (name.map { "sample '\($0)'" } ?? "the sample") + " of \(target.pointee.qualifiedName)"
            if sample.expectFailure {
                out.append(diagnostic(service, sample, "\(what) has expectFailure: true but passes its expectations",
                                      "remove expectFailure:, or make the sample show the failure"))
            } else {
                out.append(diagnostic(service, sample, "\(what) fails its expectations: \(verdict.messages.first ?? "")",
                                      "fix the sample or expect:, or add expectFailure: true if the sample shows a failure"))
            }
        }
        if let sample = target.pointee.sample { judge(nil, sample) }
        for (name, sample) in target.pointee.samples { judge(name, sample) }
    }

    /// The verdict on `sample` as its stub's answer would get it, without a stub: when the answer
    /// is the sample's status and its `json:` body (or none) as written (nothing in it expands,
    /// `Value.isLiteralJSON`), it neither fails nor times out, it has no events or messages, and
    /// `expect` judges nothing but the status, the JSON and the time. Then the body is judged as
    /// written, not written as JSON text and parsed back. nil: judge it through the stub.
    static func quickVerdict(_ sample: Sample, _ expect: Expectations?, _ policy: Policy) -> Verdict? {
        guard sample.error == nil, sample.delay <= policy.timeout, sample.events == nil, sample.messages == nil,
              expect?.judgesOnlyStatusJSONAndTime != false,
              sample.headers.allSatisfy({ $0.value.expandsToItself }) else { return nil }
        var json: Value?
        switch sample.body {
        case nil: json = nil
        case .json(let value)? where value.isLiteralJSON: json = value
        case .json?, .text?, .file?: return nil
        }
        let failures = Judge.failures(expect, validation: policy.validation, status: sample.status, json: json,
                                      duration: sample.delay)
        return Verdict.judge(failures: failures, expectFailure: sample.expectFailure)
    }

    private static func diagnostic(_ service: Service, _ sample: Sample, _ message: String, _ hint: String?) -> Diagnostic {
        Diagnostic(file: service.file, mark: sample.mark, message: message, hint: hint)
    }
}

extension SampleCheck {
    /// `apicli mock --validate`: every sample of the selected targets that breaks its target's
    /// `expect: schema:` (for the sample's status), or answers a status its OpenAPI operation does
    /// not document, as a diagnostic at the sample, so the mock refuses to start serving an answer
    /// that contradicts the contract.
    package static func schemaDiagnostics(_ selected: [(Service, Target)], workspace: Workspace) -> [Diagnostic] {
        let workspace = workspace.offline()
        var out: [Diagnostic] = []
        for (service, target) in selected {
            guard let schema = target.expect?.schema, !target.allSamples.isEmpty,
                  let bindings = try? workspace.bindings(for: target, in: service) else { continue }
            for (name, sample) in target.allSamples where !sample.expectFailure {
                guard let response = try? Workspace.stub(sample, bindings: bindings, captures: [:], file: service.file).response()
                else { continue }
                let what = (name.map { "sample '\($0)'" } ?? "the sample") + " of \(target.qualifiedName)"
                if schema.documents(response.status) == false {
                    let listed = schema.documentedStatuses.joined(separator: ", ")
                    out.append(Diagnostic(file: service.file, mark: sample.mark,
                                          message: "\(what) answers \(response.status), which \(schema.source) does not document (its responses: \(listed))",
                                          hint: "answer with a documented status, or document \(response.status) in the description"))
                    continue
                }
                let violations = Judge.schema(schema, response)
                guard let first = violations.first else { continue }
                let more = violations.count > 1 ? " (and \(violations.count - 1) more)" : ""
                out.append(Diagnostic(file: service.file, mark: sample.mark, message: "\(what) breaks its schema: \(first.dropFirst("schema: ".count))\(more)",
                                      hint: "fix the sample (or re-record it), or the schema"))
            }
        }
        return out
    }
}
