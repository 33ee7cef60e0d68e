import APIDiagnostics
import APIEndpoint
import APITransport
import AsyncHTTPClient
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import NIOHTTP1

extension NIOConnector {
    /// The URL async-http-client is given for a request that `route` sends elsewhere: another port
    /// (`--connect-to`) or a unix socket (`http+unix://`). Either way `Host:` stays the request's
    /// (`PreparedRequest.wireHeaders` names it), as curl sends it.
    static func wireURL(_ url: URL, route: ConnectionOptions.Route) throws(APIError) -> URL {
        guard route.socket != nil || route.port != nil else { return url }
        if let socket = route.socket {
            var uri = url.path(percentEncoded: true)
            if uri.isEmpty { uri = "/" }
            if let query = url.query(percentEncoded: true) { uri += "?" + query }
            let made = url.scheme?.lowercased() == "https" ? URL(httpsURLWithSocketPath: socket, uri: uri)
                                                           : URL(httpURLWithSocketPath: socket, uri: uri)
            guard let made else {
                throw .invalid(Diagnostic(file: nil, mark: nil, message: "cannot make a request over the unix socket '\(socket)' for \(url.absoluteString)",
                                          hint: "name the socket by its path, like /var/run/docker.sock"))
            }
            return made
        }
        guard var parts = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return url }
        parts.port = route.port
        return parts.url ?? url
    }
}
