/// The transport for live calls: URLSession unless TLS options ask for what it cannot do on
/// Linux (an extra CA, no verification), then async-http-client. Both behave the same.
public func liveTransport(for tls: TLSOptions) throws(APIError) -> any Transport {
    tls.isDefault ? URLSessionTransport() : try NIOTransport(tls: tls)
}
