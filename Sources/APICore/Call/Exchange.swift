/// One request sent through a transport and judged by the endpoint's validation.
public struct Exchange: Sendable {
    public var request: PreparedRequest
    public var response: Response
    public var validation: Validation

    /// Whether the validation accepts the status (Moya's `validationType`).
    public var accepted: Bool { validation.accepts(response.status) }

    /// Sends `request` through `transport`; transport failures are thrown, rejections are not.
    public static func perform(_ request: PreparedRequest, validation: Validation,
                               transport: some Transport) async throws(APIError) -> Exchange {
        let response = try await transport.send(request)
        return Exchange(request: request, response: response, validation: validation)
    }
}
