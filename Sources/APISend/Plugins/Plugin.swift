import APIDiagnostics
import APIEndpoint
import APITransport
/// A hook around one exchange: Moya's `PluginType`. Plugins run in the order given; each hook has a
/// default (below), so a plugin implements only what it needs. Plugins are internal architecture
/// (auth, logging), not a scripting surface, and like the rest of the core they never print: a
/// plugin that produces text hands it to a sink the caller supplies.
package protocol Plugin: Sendable {
    /// Changes the request before it is sent (auth adds its header here).
    func prepare(_ request: PreparedRequest) -> PreparedRequest
    /// Called with the final request, just before the transport sends it.
    func willSend(_ request: PreparedRequest)
    /// Called as the request body goes out and the response body comes in (streamed transfers),
    /// from any thread, possibly often: keep it cheap.
    func progress(_ progress: TransferProgress, for request: PreparedRequest)
    /// Called with the transport's result, before `process`.
    func didReceive(_ result: Result<Response, APIError>, for request: PreparedRequest)
    /// Changes the result before the caller sees it.
    func process(_ result: Result<Response, APIError>, for request: PreparedRequest) -> Result<Response, APIError>
}

extension Plugin {
    /// Default: the request unchanged.
    package func prepare(_ request: PreparedRequest) -> PreparedRequest { request }
    /// Default: nothing.
    package func willSend(_ request: PreparedRequest) {}
    /// Default: nothing.
    package func progress(_ progress: TransferProgress, for request: PreparedRequest) {}
    /// Default: nothing.
    package func didReceive(_ result: Result<Response, APIError>, for request: PreparedRequest) {}
    /// Default: the result unchanged.
    package func process(_ result: Result<Response, APIError>, for request: PreparedRequest) -> Result<Response, APIError> {
        result
    }
}

extension Array where Element == any Plugin {
    /// Every plugin's `prepare`, in order: the request as it will be sent. `show` and `--curl`
    /// use this too, so they print what a call would send.
    package func prepare(_ request: PreparedRequest) -> PreparedRequest {
        reduce(request) { $1.prepare($0) }
    }
}
