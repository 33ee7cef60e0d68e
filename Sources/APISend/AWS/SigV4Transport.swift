import APISupport
import APIDiagnostics
import APITargets
import APIEndpoint
import APITransport
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Crypto

/// `auth: { aws: }` as a transport decorator: a request that carries `AWSCredentials` is signed
/// (AWS Signature Version 4, `SigV4Signer`) as it is sent — after every plugin, so the headers
/// signed are the ones sent — with the time of the attempt (a retry is signed again). The body's
/// SHA-256 is signed, streamed bodies too (their files are read once more to hash them).
/// S3 also gets `X-Amz-Content-SHA256`, as it requires. Requests without credentials pass through.
package struct SigV4Transport: Transport {
    package let base: any Transport
    let now: @Sendable () -> Date

    package init(_ base: any Transport, now: @escaping @Sendable () -> Date = { Date() }) {
        self.base = base
        self.now = now
    }

    nonisolated(nonsending) package func send(_ request: PreparedRequest) async throws(APIError) -> Response {
        try await send(request, transfer: Transfer())
    }

    nonisolated(nonsending) package func send(_ request: PreparedRequest, transfer: Transfer) async throws(APIError) -> Response {
        guard let credentials = request.aws else { return try await base.send(request, transfer: transfer) }
        return try await base.send(try Self.signed(request, credentials, at: now()), transfer: transfer)
    }

    static func signed(_ request: PreparedRequest, _ credentials: AWSCredentials, at date: Date) throws(APIError) -> PreparedRequest {
        let hash = try payloadHash(request.body)
        var headers = request.headers.filter { $0.name.lowercased() != "x-amz-content-sha256" }
        if credentials.service == "s3" {
            headers.append(HeaderField("X-Amz-Content-SHA256", hash))
        }
        var out = request
        out.headers = SigV4Signer(credentials).sign(method: request.method, url: request.url, headers: headers,
                                                    payloadHash: hash, date: date)
        return out
    }

    /// Lowercase hex SHA-256 of the body as it will be sent: files (and a multipart body's
    /// files) read once in chunks with the reader the transport streams them with.
    static func payloadHash(_ body: PreparedRequest.Body?) throws(APIError) -> String {
        guard let body else { return SigV4Signer.hex(SHA256.hash(data: Data())) }
        if case .data(let data) = body { return SigV4Signer.hex(SHA256.hash(data: data)) }
        let reader = BodyReader(try SizedBody(body))
        var hasher = SHA256()
        while let chunk = try reader.next(limit: 1 << 20) { hasher.update(data: chunk) }
        return SigV4Signer.hex(hasher.finalize())
    }
}
