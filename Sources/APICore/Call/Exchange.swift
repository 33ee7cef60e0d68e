/// One request sent through a transport and judged by the endpoint's validation.
public struct Exchange: Sendable {
    /// The request as sent: after every plugin's `prepare`.
    public var request: PreparedRequest
    public var response: Response
    public var validation: Validation

    /// Whether the validation accepts the status (Moya's `validationType`).
    public var accepted: Bool { validation.accepts(response.status) }

    /// Runs the plugins' `prepare` in order, `willSend`, sends `request` through `transport`, then
    /// `didReceive` and `process` in order. Transport failures (after `process`) are thrown;
    /// rejections are not. With `destination`, the body is streamed into it (the response's
    /// `saved`); the caller commits or discards it. With `stream`, the body is written there as it
    /// comes, after `head` heard the status and headers. Plugins hear the transfer's progress.
    public static func perform(_ request: PreparedRequest, validation: Validation, transport: some Transport,
                               plugins: [any Plugin] = [], destination: PartialFile? = nil, stream: (any BodySink)? = nil,
                               head: @escaping @Sendable (Response) -> Void = { _ in }) async throws(APIError) -> Exchange {
        let prepared = plugins.prepare(request)
        for plugin in plugins { plugin.willSend(prepared) }
        var result: Result<Response, APIError>
        let transfer = Transfer(destination: destination, stream: stream, progress: { progress in
            for plugin in plugins { plugin.progress(progress, for: prepared) }
        }, head: head)
        do {
            result = .success(try await transport.send(prepared, transfer: transfer))
        } catch {
            result = .failure(error)
        }
        for plugin in plugins { plugin.didReceive(result, for: prepared) }
        for plugin in plugins { result = plugin.process(result, for: prepared) }
        let response = try result.get()
        return Exchange(request: prepared, response: response, validation: validation)
    }
}
