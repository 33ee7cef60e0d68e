// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "apicli",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "apicli", targets: ["apicli"]),
        .library(name: "APICore", targets: ["APICore"]),
    ],
    // On Linux the live transport is async-http-client alone (no libcurl). This trait builds the
    // URLSession transport there too (FoundationNetworking, libcurl) and sends plain calls through
    // it, as on Apple platforms; `make test` builds and runs the transport contract tests with it.
    traits: [
        .trait(name: "URLSessionTransport",
               description: "On Linux, also build the URLSession transport (FoundationNetworking, libcurl) and use it for plain calls"),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        // The live transport (SwiftNIO, BoringSSL): HTTP/1.1 and HTTP/2, TLS options, streaming.
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        // MD5 and SHA-256 for HTTP Digest: already built for async-http-client (through
        // swift-nio-ssl and swift-certificates), so naming it costs no build time.
        .package(url: "https://github.com/apple/swift-crypto.git", from: "4.5.2"),
        // `apicli load`: latency histograms (HdrHistogram: bounded memory, lossless merge across shards).
        .package(url: "https://github.com/HdrHistogram/hdrhistogram-swift", from: "0.2.0"),
        // The mock's WebSocket endpoint (NIOWebSocket): swift-nio is already built for async-http-client.
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        // `http2: prior-knowledge` (h2c): async-http-client speaks HTTP/2 only after TLS's ALPN;
        // swift-nio-http2 is already built for it, so naming it costs no build time.
        .package(url: "https://github.com/apple/swift-nio-http2.git", from: "1.46.0"),
        // The live WebSocket client (`task: { websocket: }`): WSClient over the swift-nio and swift-nio-ssl
        // we already build, with permessage-deflate (WSCompression), subprotocols, proxies and TLS.
        .package(url: "https://github.com/hummingbird-project/swift-websocket", from: "1.6.2"),
        // Named for the WebSocket client's handshake headers (HTTPTypes) and its Logger: both already
        // built for swift-websocket and async-http-client.
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
    ],
    targets: [
        // The system's libyaml (Debian: libyaml-dev). Only APICore/YAML imports it.
        .systemLibrary(
            name: "CLibYAML",
            pkgConfig: "yaml-0.1",
            providers: [.apt(["libyaml-dev"]), .brew(["libyaml"])]
        ),
        // Everything up to the verdict. Never prints, reads the terminal or exits.
        .target(
            name: "APICore",
            dependencies: [
                "CLibYAML",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Histogram", package: "hdrhistogram-swift"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
                .product(name: "NIOHTTP2", package: "swift-nio-http2"),
                .product(name: "WSClient", package: "swift-websocket"),
                .product(name: "WSCompression", package: "swift-websocket"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // Argument parsing, rendering and exit codes.
        // Linux: export none of the program's symbols (Sources/apicli/exports.map says why: start-up).
        .executableTarget(
            name: "apicli",
            dependencies: [
                "APICore",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            exclude: ["exports.map"],
            linkerSettings: [
                .unsafeFlags(["-Xlinker", "--version-script=\(Context.packageDirectory)/Sources/apicli/exports.map"],
                             .when(platforms: [.linux])),
            ]
        ),
        // libFuzzer harness over the YAML layer, the decoders and endpoint mapping (`make fuzz`);
        // a normal build makes it a replayer of saved inputs.
        .executableTarget(name: "apicli-fuzz", dependencies: ["APICore"]),
        // The project's Python test servers (scripts/*.py) started on a free loopback port: for both test targets.
        .target(name: "TestServers", path: "Tests/TestServers"),
        .testTarget(
            name: "APICoreTests",
            dependencies: ["APICore", "TestServers"],
            resources: [.copy("Fixtures")]
        ),
        // Runs the built binary: exit codes, stdout/stderr, live calls against a local httpbin.
        // Fixtures and Malformed are read from the source tree (by #filePath), not bundled.
        .testTarget(name: "apicliTests", dependencies: ["apicli", "apicli-fuzz", "TestServers"], exclude: ["Fixtures", "Malformed"]),
    ]
)
