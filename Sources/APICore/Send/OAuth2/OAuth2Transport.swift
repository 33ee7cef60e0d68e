/// `auth: { oauth2: }` as a transport decorator: a request that carries OAuth2 settings gets its
/// `Authorization` from `OAuth2Client` (cached, refreshed, or fetched through the same transport)
/// and, when the API answers 401, once more with a fresh token. Requests without settings pass
/// through. The `Caller` puts it around the live transport; a stub is not wrapped (nothing is
/// sent, so no token is fetched).
public struct OAuth2Transport: Transport {
    public let base: any Transport

    public init(_ base: any Transport) {
        self.base = base
    }

    public func send(_ request: PreparedRequest) async throws(APIError) -> Response {
        try await send(request, transfer: Transfer())
    }

    public func send(_ request: PreparedRequest, transfer: Transfer) async throws(APIError) -> Response {
        guard request.oauth2 != nil else { return try await base.send(request, transfer: transfer) }
        let first = try await OAuth2Client.authorize(request, fresh: false, via: base)
        let response = try await base.send(first, transfer: transfer.holding { $0.status == 401 })
        guard response.status == 401 else { return response }
        // The token is no longer taken: once more with a fresh one (the 401's body was not kept).
        let again = try await OAuth2Client.authorize(request, fresh: true, via: base)
        try transfer.destination?.reset()
        return try await base.send(again, transfer: transfer)
    }
}
