/// How the requests of a run reach the network: the connection options of the command line
/// (`--resolve`, `--connect-to`, `--unix-socket`, `--http1.1`, and the connections a host gets),
/// the proxies of the environment the workspace was made with, and the run's cookie jar. A value:
/// the workspace carries it, the `Caller` hands it to the live transport it makes, and two
/// workspaces with different settings send side by side in one process. The jar is a reference:
/// every copy of a workspace and every caller made from it share the one jar of the run.
package struct RunSettings: Sendable {
    package var connection: ConnectionOptions
    package var proxies: ProxySettings
    package var cookies: CookieJar

    /// `cookies`: nil for a new, empty jar.
    package init(connection: ConnectionOptions = ConnectionOptions(), proxies: ProxySettings = ProxySettings(),
                 cookies: CookieJar? = nil) {
        self.connection = connection
        self.proxies = proxies
        self.cookies = cookies ?? CookieJar()
    }
}
