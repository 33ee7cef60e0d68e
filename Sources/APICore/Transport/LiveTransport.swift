/// The transport for live calls. A request goes through URLSession unless it needs what
/// URLSession on Linux cannot do:
/// - TLS options (an extra CA, no verification);
/// - streaming: a body from files (upload, multipart) or a body into a file (download).
///   FoundationNetworking queues every received chunk for its delegate without back-pressure,
///   so a download outruns the disk into memory; and it can stream a request body only with
///   chunked encoding. async-http-client streams both ways in flat memory, with a Content-Length.
/// Those go through async-http-client (one cached client per TLS setting). Both behave the same.
public struct LiveTransport: Transport {
    private let session = URLSessionTransport()

    public init() {}

    public func send(_ request: PreparedRequest) async throws(APIError) -> Response {
        try await send(request, transfer: Transfer())
    }

    public func send(_ request: PreparedRequest, transfer: Transfer) async throws(APIError) -> Response {
        if Self.usesURLSession(request, transfer) { return try await session.send(request) }
        return try await NIOTransport(tls: request.tls).send(request, transfer: transfer)
    }

    /// Whether URLSession serves this exchange (else async-http-client).
    public static func usesURLSession(_ request: PreparedRequest, _ transfer: Transfer) -> Bool {
        request.tls.isDefault && transfer.destination == nil && request.body?.isStreamed != true
    }
}
