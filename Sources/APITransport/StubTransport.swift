import APISupport
import APIDiagnostics
import APITargets
import APIEndpoint
import Dispatch
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Answers with a target's sample instead of the network: Moya's stubbing as a transport.
/// It waits the sample's `delay` (but never past the request's timeout, which then fires as a
/// live one would), fails with its `error`, or returns its status, headers and body.
package struct StubTransport: Transport {
    package var sample: Sample
    package var bindings: Bindings
    package var file: String

    package init(sample: Sample, bindings: Bindings, file: String) {
        self.sample = sample
        self.bindings = bindings
        self.file = file
    }

    nonisolated(nonsending) package func send(_ request: PreparedRequest) async throws(APIError) -> Response {
        try await send(request, transfer: Transfer())
    }

    /// A stubbed upload sends nothing, but its files must exist (`uploads(in:)` measures them); a
    /// stubbed download writes the sample's body (a `file:` body streamed) to the destination.
    nonisolated(nonsending) package func send(_ request: PreparedRequest, transfer: Transfer) async throws(APIError) -> Response {
        _ = try Self.uploads(in: request)
        let start = DispatchTime.now()
        let wait = min(sample.delay, request.timeout)
        if wait > 0 {
            do { try await Task.sleep(nanoseconds: UInt64(wait * 1e9)) } catch { throw .network(.other("the request was cancelled")) }
        }
        if let failure = failure(timeout: request.timeout) { throw failure }
        if sample.events != nil || sample.messages != nil, transfer.destination == nil, let sink = transfer.stream {
            return try await streamEvents(request, to: sink, transfer: transfer, start: start)
        }
        if let idle = request.idle, sample.events?.contains(where: { $0.delay > idle }) == true {
            do { try await Task.sleep(nanoseconds: UInt64(idle * 1e9)) } catch { throw .network(.other("the request was cancelled")) }
            throw .idleTimeout(idle)
        }
        var response: Response
        if let destination = transfer.destination {
            response = try self.response(into: destination)
        } else {
            response = try self.response()
        }
        response.duration = Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
        return response
    }

    /// What the sample stands for instead of a response, for a request with `timeout`: a delay
    /// beyond it is a timeout (as a live server that slow would be), `error:` a network failure.
    package func failure(timeout: Double) -> APIError? {
        if sample.delay > timeout { return .timedOut(timeout) }
        if let error = sample.error { return .network(.stubbed(error)) }
        return nil
    }

    /// The answer without waiting the delay (`validate`): the failure, or the response with the
    /// delay as its duration.
    package func answer(timeout: Double) -> Result<Response, APIError> {
        if let failure = failure(timeout: timeout) { return .failure(failure) }
        return Result { () throws(APIError) in
            var response = try self.response()
            response.duration = sample.delay
            return response
        }
    }

    /// The files a request would upload, with their sizes, in body order: what a stub reports
    /// instead of sending them. A missing or unreadable file is an error (exit 2).
    package static func uploads(in request: PreparedRequest) throws(APIError) -> [(path: String, bytes: Int64)] {
        guard let body = request.body else { return [] }
        return try SizedBody(body).pieces.compactMap { piece in
            if case .file(let path) = piece.piece { return (path, piece.size) }
            return nil
        }
    }

    /// The sample with its body written to `destination`; a `file:` body is copied a chunk at a time.
    private func response(into destination: PartialFile) throws(APIError) -> Response {
        guard case .file(let path, let mark)? = sample.body else {
            var response = try self.response()
            try destination.write(response.body)
            response.body = Data()
            response.saved = destination
            return response
        }
        var headers: [HeaderField] = []
        for header in sample.headers {
            headers.set(header.name, try bindings.expand(header.value, in: "sample header '\(header.name)'", file: file))
        }
        do throws(APIError) {
            _ = try SizedBody.size(of: path)  // a regular, readable file
        } catch {
            throw .invalid(Diagnostic(file: file, mark: mark, message: "cannot read sample file \(path)"))
        }
        let reader = BodyReader(try SizedBody(.file(path)))
        while let chunk = try reader.next(limit: 1 << 18) { try destination.write(chunk) }
        var response = Response(status: sample.status, headers: headers, body: Data(), duration: 0)
        response.saved = destination
        return response
    }

    /// The sample's status, headers and body, expanded; a JSON body gets a JSON Content-Type unless one is declared.
    package func response() throws(APIError) -> Response {
        var headers: [HeaderField] = []
        for header in sample.headers {
            headers.set(header.name, try bindings.expand(header.value, in: "sample header '\(header.name)'", file: file))
        }
        var body = Data()
        switch sample.body {
        case .text(let t)?:
            body = Data(utf8: try bindings.expand(t, in: "the sample body", file: file, unresolved: .keep))
        case .json(let v)?:
            body = Data(utf8: try v.expanded(with: bindings, in: "the sample JSON", file: file).jsonText)
            if headers.value(of: "Content-Type") == nil { headers.append(HeaderField("Content-Type", "application/json")) }
        case .file(let path, let mark)?:
            guard let data = FileManager.default.contents(atPath: path) else {
                throw .invalid(Diagnostic(file: file, mark: mark, message: "cannot read sample file \(path)"))
            }
            body = data
        case nil:
            guard sample.events != nil || sample.messages != nil else { break }
            body = Data(try eventChunks().map(\.bytes).joined())
            if sample.events != nil, headers.value(of: "Content-Type") == nil {
                headers.append(HeaderField("Content-Type", Sample.eventStreamType))
            }
        }
        var out = Response(status: sample.status, headers: headers, body: body, duration: 0)
        out.messages = try receivedMessages()
        return out
    }
}
