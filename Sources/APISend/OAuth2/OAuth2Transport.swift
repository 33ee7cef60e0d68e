import APIDiagnostics
import APITargets
import APIEndpoint
import APITransport
/// `auth: { oauth2: }` as a transport decorator: a request that carries OAuth2 settings gets its
/// `Authorization` from `OAuth2Client` (cached, refreshed, or fetched through the same transport;
/// a fresh one when `freshToken` asks, which the `Caller` sets after a 401). Requests without
/// settings pass through. The `Caller` puts it around the live transport; a stub is not wrapped (nothing is
/// sent, so no token is fetched).
package struct OAuth2Transport: Transport {
    package let base: any Transport

    package init(_ base: any Transport) {
        self.base = base
    }

    nonisolated(nonsending) package func send(_ request: PreparedRequest) async throws(APIError) -> Response {
        try await send(request, transfer: Transfer())
    }

    nonisolated(nonsending) package func send(_ request: PreparedRequest, transfer: Transfer) async throws(APIError) -> Response {
        guard request.hasOAuth2 else { return try await base.send(request, transfer: transfer) }
        let authorized = try await OAuth2Client.authorize(request, fresh: request.freshToken, via: base)
        return try await base.send(authorized, transfer: transfer)
    }
}
