import APISupport
import APIDiagnostics
import APITargets
import APIEndpoint
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Sends a prepared request and returns the response. Live and stubbed calls go through the same
/// protocol, so everything after it (validation, output, exit codes) behaves the same.
///
/// `send` and the layers above and below it on a request's way (`Caller`, `Sender`, `Exchange`, the
/// decorators, `LiveTransport`, the keep-alive connector and pool, `Deadline.bound`) are
/// `nonisolated(nonsending)`: they run on the executor of the task that calls them (a `load` user's
/// or a `check` worker's event loop) instead of hopping to the global executor at each call and
/// back at each return, which asked the task for its executor preference under a lock every time.
package protocol Transport: Sendable {
    nonisolated(nonsending) func send(_ request: PreparedRequest) async throws(APIError) -> Response
    /// Sends with the body received into `transfer.destination` (when set) and progress reported
    /// as bytes move. Default: `send(_:)`, then the body written to the destination.
    nonisolated(nonsending) func send(_ request: PreparedRequest, transfer: Transfer) async throws(APIError) -> Response
    /// The headers `request` goes out with when sent with `transfer`: its own and those the
    /// transport adds (`Host`, framing, `Accept-Encoding`, the cookie jar's `Cookie`), for `-v`.
    /// Default: its own (a transport that adds none, or cannot say which it adds).
    func headersSent(_ request: PreparedRequest, transfer: Transfer) -> [HeaderField]
}

extension Transport {
    package func headersSent(_ request: PreparedRequest, transfer: Transfer) -> [HeaderField] {
        request.headers
    }

    nonisolated(nonsending) package func send(_ request: PreparedRequest, transfer: Transfer) async throws(APIError) -> Response {
        var response = try await send(request)
        transfer.head(response)
        if let sink = transfer.destination ?? transfer.stream {
            try sink.write(response.body)
            response.body = Data()
            response.saved = transfer.destination
            response.streamed = transfer.stream != nil
        }
        return response
    }
}
