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
        var prepared = plugins.prepare(request)
        let live = !(transport is StubTransport)
        if live { prepared = try await OAuth2Client.authorize(prepared, fresh: false) }
        var result = await send(prepared, transport, plugins, destination, stream, head)
        // An OAuth2 token the API no longer takes: once more with a fresh one.
        if live, prepared.oauth2 != nil, case .success(let r) = result, r.status == 401 {
            prepared = try await OAuth2Client.authorize(prepared, fresh: true)
            try destination?.reset()
            result = await send(prepared, transport, plugins, destination, stream, head)
        }
        for plugin in plugins { result = plugin.process(result, for: prepared) }
        let response = try result.get()
        return Exchange(request: prepared, response: response, validation: validation)
    }

    private static func send(_ prepared: PreparedRequest, _ transport: some Transport, _ plugins: [any Plugin],
                             _ destination: PartialFile?, _ stream: (any BodySink)?,
                             _ head: @escaping @Sendable (Response) -> Void) async -> Result<Response, APIError> {
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
        return result
    }
}
