/// The transport for live calls. Each request goes through URLSession unless its TLS options
/// ask for what URLSession cannot do on Linux (an extra CA, no verification); those go through
/// async-http-client (one cached client per TLS setting). Both behave the same.
public struct LiveTransport: Transport {
    private let session = URLSessionTransport()

    public init() {}

    public func send(_ request: PreparedRequest) async throws(APIError) -> Response {
        if request.tls.isDefault { return try await session.send(request) }
        return try await NIOTransport(tls: request.tls).send(request)
    }
}
