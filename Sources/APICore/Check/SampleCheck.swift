/// Judges every sample of a service against its target's expectations, offline, as
/// `apicli check --stub` would — for `apicli validate`. A sample that fails without
/// `expectFailure: true`, or passes with it, is a diagnostic at the sample.
public enum SampleCheck {
    public static func diagnostics(_ service: Service, resolver: EndpointResolver) -> [Diagnostic] {
        var out: [Diagnostic] = []
        for target in service.targets {
            var samples: [(String?, Sample)] = target.sample.map { [(nil, $0)] } ?? []
            samples += target.samples.map { ($0.name, $0.sample) }
            for (name, sample) in samples {
                let what = (name.map { "sample '\($0)'" } ?? "the sample") + " of \(target.qualifiedName)"
                let validation = target.validation ?? service.validation ?? .none
                let failures: [String]
                do throws(APIError) {
                    failures = try judge(sample, target, service, resolver, validation)
                } catch {
                    if case .invalidInput(let d) = error { out += d } else { out.append(diagnostic(service, sample, "\(what): \(error)", nil)) }
                    continue
                }
                if let first = failures.first, !sample.expectFailure {
                    out.append(diagnostic(service, sample, "\(what) fails its expectations: \(first)",
                                          "fix the sample or expect:, or add expectFailure: true if the sample shows a failure"))
                } else if failures.isEmpty, sample.expectFailure {
                    out.append(diagnostic(service, sample, "\(what) has expectFailure: true but passes its expectations",
                                          "remove expectFailure:, or make the sample show the failure"))
                }
            }
        }
        return out
    }

    private static func judge(_ sample: Sample, _ target: Target, _ service: Service, _ resolver: EndpointResolver,
                              _ validation: Validation) throws(APIError) -> [String] {
        if let error = sample.error { return ["network error: \(error)"] }
        let stub = StubTransport(sample: sample, bindings: try resolver.bindings(for: target, in: service), file: service.file)
        var response = try stub.response()
        response.duration = sample.delay
        return Judge.failures(target.expect, validation: validation, response: response)
    }

    private static func diagnostic(_ service: Service, _ sample: Sample, _ message: String, _ hint: String?) -> Diagnostic {
        Diagnostic(file: service.file, mark: sample.mark, message: message, hint: hint)
    }
}
