import APIDiagnostics
import APIEndpoint
import APITransport
/// One attempt at a request: the plugins' hooks around one `transport.send`. The `Caller` runs
/// it (once, or again for retries and `until:`); nothing else sends. It judges nothing: the
/// verdict (validation, `expect:`) is `Verdict`'s, over the `Caller`'s `Sent`.
package struct Exchange: Sendable {
    /// The request as sent: after every plugin's `prepare`.
    package var request: PreparedRequest
    package var response: Response

    /// Runs the plugins' `prepare` in order, `willSend`, sends `request` through `transport`, then
    /// `didReceive` and `process` in order. Transport failures (after `process`) are thrown;
    /// rejections are not. `transfer` says where the body goes (a file, a stream) and who hears
    /// its head; plugins hear the transfer's progress.
    nonisolated(nonsending) package static func perform(_ request: PreparedRequest, transport: some Transport,
                               plugins: [any Plugin] = [], transfer: Transfer = Transfer()) async throws(APIError) -> Exchange {
        let prepared = plugins.prepare(request)
        if !plugins.isEmpty {
            // The plugins hear the request as it goes out: with the headers the transport adds.
            var sent = prepared
            sent.headers = transport.headersSent(prepared, transfer: transfer)
            for plugin in plugins { plugin.willSend(sent) }
        }
        var moving = transfer
        if !plugins.isEmpty {  // none: progress goes straight to the transfer's (no closure a request)
            let progress = transfer.progress
            moving.progress = { p in
                progress(p)
                for plugin in plugins { plugin.progress(p, for: prepared) }
            }
        }
        var result: Result<Response, APIError>
        do {
            result = .success(try await transport.send(prepared, transfer: moving))
        } catch {
            result = .failure(error)
        }
        for plugin in plugins { plugin.didReceive(result, for: prepared) }
        for plugin in plugins { result = plugin.process(result, for: prepared) }
        return Exchange(request: prepared, response: try result.get())
    }
}
