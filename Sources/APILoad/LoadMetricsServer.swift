import APISupport
import APIDiagnostics
import APITransport
import APILive
import Atomics
import NIOCore
import NIOHTTP1
import NIOPosix

/// `apicli load --metrics ADDR`: a small HTTP/1.1 server on one thread of its own that answers
/// `GET /metrics` with the run's metrics in Prometheus' text format (keep-alive, as Prometheus
/// scrapes), 404 for any other path. It counts the scrapes it served, so that the run can wait for
/// the one after its end (`linger`). Scrapers are bounded (`Limits`): an address open to a network
/// must not let its clients hold the run's memory or sockets.
package final class LoadMetricsServer: Sendable {
    /// What the listener allows its scrapers: at most `connections` open at once (one more is closed
    /// as it comes), a connection with nothing read or written for `idleSeconds` is closed, and so is
    /// one that sends more than `requestBytes` before its request ends (a scrape is a few hundred).
    package struct Limits: Sendable {
        package var connections: Int
        package var idleSeconds: Double
        package var requestBytes: Int

        package init(connections: Int = 16, idleSeconds: Double = 10, requestBytes: Int = 8192) {
            self.connections = connections
            self.idleSeconds = idleSeconds
            self.requestBytes = requestBytes
        }
    }


    private let group: MultiThreadedEventLoopGroup
    private let channel: any Channel
    private let scrapes: ManagedAtomic<Int>
    package let host: String
    package let port: Int

    /// `ADDR` of `--metrics`: `HOST:PORT`, `:PORT` or `PORT` (loopback, 127.0.0.1), `[IPv6]:PORT`;
    /// HOST is an IPv4 address, `localhost`, or an IPv6 address in brackets. Port 0: a free one.
    /// Nil when it is none of these.
    package static func address(_ text: String) -> (host: String, port: Int)? {
        var host = "", portText = text
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]"), text[text.index(after: close)...].hasPrefix(":") else { return nil }
            host = String(text[text.index(after: text.startIndex)..<close])
            portText = String(text[text.index(close, offsetBy: 2)...])
            guard !host.isEmpty, host.allSatisfy({ $0.isHexDigit || $0 == ":" || $0 == "." }), host.contains(":") else { return nil }
        } else if let colon = text.lastIndex(of: ":") {
            host = String(text[..<colon])
            portText = String(text[text.index(after: colon)...])
            let quad = host.split(separator: ".", omittingEmptySubsequences: false)
            let ipv4 = quad.count == 4 && quad.allSatisfy { $0.count <= 3 && UInt8($0) != nil }
            guard host.isEmpty || host == "localhost" || ipv4 else { return nil }
        }
        guard !portText.isEmpty, portText.allSatisfy(\.isASCII), let port = Int(portText), (0...65535).contains(port) else { return nil }
        return (host.isEmpty ? "127.0.0.1" : host, port)
    }

    /// Listens on `host:port`, serving `metrics` (with `watch`'s in-flight count). A port that cannot
    /// be listened on is a network error (exit 3).
    package static func start(host: String, port: Int, metrics: LoadMetrics, watch: LoadWatch,
                              limits: Limits = Limits()) async throws(APIError) -> LoadMetricsServer {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let scrapes = ManagedAtomic<Int>(0)
        let open = ManagedAtomic<Int>(0)
        let idle = TimeAmount.nanoseconds(Int64(limits.idleSeconds * 1e9))
        let bootstrap = ServerBootstrap(group: group)
            .serverChannelOption(ChannelOptions.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                // One thread accepts and serves, so this count is exact; a failed initializer closes
                // the connection before it is read.
                guard open.wrappingIncrementThenLoad(ordering: .relaxed) <= limits.connections else {
                    open.wrappingDecrement(ordering: .relaxed)
                    return channel.eventLoop.makeFailedFuture(ChannelError.ioOnClosedChannel)
                }
                channel.closeFuture.whenComplete { _ in open.wrappingDecrement(ordering: .relaxed) }
                return channel.eventLoop.makeCompletedFuture {
                    let budget = RequestBudget()
                    try channel.pipeline.syncOperations.addHandler(IdleStateHandler(allTimeout: idle))
                    try channel.pipeline.syncOperations.addHandler(Guard(budget: budget, limit: limits.requestBytes))
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline(withErrorHandling: true)
                    try channel.pipeline.syncOperations.addHandler(Handler(metrics: metrics, watch: watch, scrapes: scrapes, budget: budget))
                }
            }
        do {
            let channel = try await bootstrap.bind(host: host, port: port).get()
            return LoadMetricsServer(group: group, channel: channel, scrapes: scrapes, host: host,
                                     port: channel.localAddress?.port ?? port)
        } catch {
            try? await group.shutdownGracefully()
            let problem = ListenProblem.describe(error, port: "pick another in --metrics, or :0 for a free one",
                                                 host: "--metrics takes one of its own addresses (127.0.0.1, [::1], 0.0.0.0)")
            throw .network(.other("--metrics cannot listen on \(host):\(port): " + problem))
        }
    }

    private init(group: MultiThreadedEventLoopGroup, channel: any Channel, scrapes: ManagedAtomic<Int>, host: String, port: Int) {
        self.group = group
        self.channel = channel
        self.scrapes = scrapes
        self.host = host
        self.port = port
    }

    /// `http://127.0.0.1:PORT/metrics`.
    package var url: String { "http://\(host.contains(":") ? "[\(host)]" : host):\(port)/metrics" }

    /// Scrapes served so far.
    package var served: Int { scrapes.load(ordering: .relaxed) }

    /// After the run: serves on until one more scrape has been answered (the run's last counts), at
    /// most `seconds`, and while `going()` (Ctrl-C ends it).
    package func linger(_ seconds: Double, while going: () -> Bool) async {
        guard seconds > 0 else { return }
        let before = served, until = monotonicSeconds() + seconds
        while served == before, monotonicSeconds() < until, going(), !Task.isCancelled {
            try? await Task.sleep(nanoseconds: 20_000_000)
        }
    }

    /// Stops listening, closes the connections, and frees the thread.
    package func stop() async {
        try? await channel.close()
        try? await group.shutdownGracefully()
    }

    /// Bytes a connection sent since its last request ended (one connection's, on its event loop).
    private final class RequestBudget: @unchecked Sendable {
        var bytes = 0
    }

    /// In front of the HTTP decoder: closes a connection that sends more than `limit` bytes before a
    /// request ends (a head the decoder would otherwise hold up to its own 80 KiB), or that
    /// `IdleStateHandler` found idle.
    private final class Guard: ChannelInboundHandler, @unchecked Sendable {
        typealias InboundIn = ByteBuffer
        typealias InboundOut = ByteBuffer

        let budget: RequestBudget
        let limit: Int

        init(budget: RequestBudget, limit: Int) {
            self.budget = budget
            self.limit = limit
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            budget.bytes += unwrapInboundIn(data).readableBytes
            guard budget.bytes <= limit else { return context.close(promise: nil) }
            context.fireChannelRead(data)
        }

        func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
            if event is IdleStateHandler.IdleStateEvent { return context.close(promise: nil) }
            context.fireUserInboundEventTriggered(event)
        }
    }

    private final class Handler: ChannelInboundHandler, @unchecked Sendable {
        typealias InboundIn = HTTPServerRequestPart
        typealias OutboundOut = HTTPServerResponsePart

        let metrics: LoadMetrics
        let watch: LoadWatch
        let scrapes: ManagedAtomic<Int>
        let budget: RequestBudget
        private var head: HTTPRequestHead?

        init(metrics: LoadMetrics, watch: LoadWatch, scrapes: ManagedAtomic<Int>, budget: RequestBudget) {
            self.metrics = metrics
            self.watch = watch
            self.scrapes = scrapes
            self.budget = budget
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            switch unwrapInboundIn(data) {
            case .head(let h): head = h
            case .body: break
            case .end:
                budget.bytes = 0
                guard let head else { return }
                self.head = nil
                respond(to: head, context: context)
            }
        }

        private func respond(to head: HTTPRequestHead, context: ChannelHandlerContext) {
            let path = head.uri.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
            var status = HTTPResponseStatus.ok
            var body: [UInt8]
            var type = "text/plain; version=0.0.4; charset=utf-8"
            if path != "/metrics" {
                status = .notFound
                body = Array("apicli load serves its metrics at /metrics\n".utf8)
                type = "text/plain; charset=utf-8"
            } else if head.method != .GET && head.method != .HEAD {
                status = .methodNotAllowed
                body = Array("GET /metrics\n".utf8)
                type = "text/plain; charset=utf-8"
            } else {
                body = metrics.exposition(watch)
            }
            var headers = HTTPHeaders([("Content-Type", type), ("Content-Length", String(body.count))])
            if !head.isKeepAlive { headers.add(name: "Connection", value: "close") }
            if head.method == .HEAD { body = [] }
            context.write(wrapOutboundOut(.head(HTTPResponseHead(version: head.version, status: status, headers: headers))), promise: nil)
            if !body.isEmpty {
                context.write(wrapOutboundOut(.body(.byteBuffer(context.channel.allocator.buffer(bytes: body)))), promise: nil)
            }
            let keepAlive = head.isKeepAlive
            let counted = status == .ok
            let scrapes = self.scrapes
            context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { [channel = context.channel] _ in
                // A scrape counts once its answer is written: the linger ends after Prometheus has it.
                if counted { scrapes.wrappingIncrement(ordering: .relaxed) }
                if !keepAlive { channel.close(promise: nil) }
            }
        }
    }
}
