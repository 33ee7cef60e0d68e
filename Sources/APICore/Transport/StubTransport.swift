import Foundation

/// Answers with a target's sample instead of the network: Moya's stubbing as a transport.
/// It waits the sample's `delay` (but never past the request's timeout, which then fires as a
/// live one would), fails with its `error`, or returns its status, headers and body.
public struct StubTransport: Transport {
    public var sample: Sample
    public var bindings: Bindings
    public var file: String

    public init(sample: Sample, bindings: Bindings, file: String) {
        self.sample = sample
        self.bindings = bindings
        self.file = file
    }

    public func send(_ request: PreparedRequest) async throws(APIError) -> Response {
        let start = DispatchTime.now()
        let wait = min(sample.delay, request.timeout)
        if wait > 0 {
            do { try await Task.sleep(nanoseconds: UInt64(wait * 1e9)) } catch { throw .network("the request was cancelled") }
        }
        if sample.delay > request.timeout { throw .timedOut(request.timeout) }
        if let error = sample.error { throw .network(error) }
        let response = try self.response()
        return Response(status: response.status, headers: response.headers, body: response.body,
                        duration: Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9)
    }

    /// The sample's status, headers and body, expanded; a JSON body gets a JSON Content-Type unless one is declared.
    public func response() throws(APIError) -> Response {
        var headers: [HeaderField] = []
        for header in sample.headers {
            headers.set(header.name, try bindings.expand(header.value, in: "sample header '\(header.name)'", file: file))
        }
        var body = Data()
        switch sample.body {
        case .text(let t)?:
            body = Data(try bindings.expand(t, in: "the sample body", file: file, unresolved: .keep).utf8)
        case .json(let v)?:
            body = Data(try v.expanded(with: bindings, in: "the sample JSON", file: file).jsonText.utf8)
            if headers.value(of: "Content-Type") == nil { headers.append(HeaderField("Content-Type", "application/json")) }
        case .file(let path, let mark)?:
            guard let data = FileManager.default.contents(atPath: path) else {
                throw .invalid(Diagnostic(file: file, mark: mark, message: "cannot read sample file \(path)"))
            }
            body = data
        case nil: break
        }
        return Response(status: sample.status, headers: headers, body: body, duration: 0)
    }
}
