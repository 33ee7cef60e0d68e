// swift-tools-version:6.1
import PackageDescription

// One target per stage of the flow, each depending only on stages below it (README, "Layout"; the
// order is checked by ModuleGraphTests): a back edge does not compile.
//
//   APISupport → APIYAML → APIJSON → APIDiagnostics → APISchema → APISecrets → APITargets
//   → APIEndpoint → APITransport → APIVerdict → APILive → APISend
//   front stages (nothing depends on them): APICheck, APILoad, APIMock, APIRecord, APIImport, APIExport
//   the `apicli` executable on top.
//
// `package` access crosses stages; `public` is kept for what a library user calls.

let nio = "swift-nio"
let package = Package(
    name: "apicli",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "apicli", targets: ["apicli"]),
        // The Swift library over the same target files (docs/swift-library.md): loading, Moya-shaped
        // targets, requests, offline contract checks. Built from the stages up to APIVerdict: no
        // NIO, no async-http-client, no argument parser (ModuleGraphTests checks it).
        .library(name: "APITargetsKit", targets: ["APITargetsKit"]),
        // Its URLSession parts: URLRequests, the stubbing URLProtocol, the async client. On Linux
        // they need FoundationNetworking (libcurl), which the `apicli` executable never links.
        .library(name: "APITargetsURLSession", targets: ["APITargetsURLSession"]),
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
        // MD5 and SHA-256 for HTTP Digest, SigV4: already built for async-http-client.
        .package(url: "https://github.com/apple/swift-crypto.git", from: "4.5.2"),
        // `apicli load`: latency histograms (HdrHistogram: bounded memory, lossless merge across shards).
        .package(url: "https://github.com/HdrHistogram/hdrhistogram-swift", from: "0.2.0"),
        // `apicli load --metrics`: the live counters and histograms served to Prometheus (lock-free counters).
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        .package(url: "https://github.com/apple/swift-atomics", from: "1.3.0"),
        // The keep-alive client, the mock server, WebSocket: the swift-nio async-http-client builds.
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.35.2"),
        // `http2: prior-knowledge` (h2c): async-http-client speaks HTTP/2 only after TLS's ALPN.
        .package(url: "https://github.com/apple/swift-nio-http2.git", from: "1.46.0"),
        // The live WebSocket client (`task: { websocket: }`): WSClient with permessage-deflate.
        .package(url: "https://github.com/hummingbird-project/swift-websocket", from: "1.6.2"),
        // The WebSocket client's handshake headers (HTTPTypes) and its Logger.
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        // `make docs-library`: the library's DocC reference (`swift package generate-documentation`).
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        // The system's libyaml (Debian: libyaml-dev). Only APIYAML imports it.
        .systemLibrary(name: "CLibYAML", pkgConfig: "yaml-0.1",
                       providers: [.apt(["libyaml-dev"]), .brew(["libyaml"])]),
        // The system's PCRE2, 8-bit (Debian: libpcre2-dev). Only APISupport imports it (BoundedRegex).
        .systemLibrary(name: "CPCRE2", pkgConfig: "libpcre2-8",
                       providers: [.apt(["libpcre2-dev"]), .brew(["pcre2"])]),

        // Text, paths, durations, locks, child processes, sharding arithmetic: no HTTP, no YAML.
        .target(name: "APISupport", dependencies: ["CPCRE2", .product(name: "Atomics", package: "swift-atomics")]),
        // libyaml events → nodes with line:column; the YAML writer.
        .target(name: "APIYAML", dependencies: ["APISupport", "CLibYAML"]),
        // JSON values (`Value`), the JSON parser and JSONPath.
        .target(name: "APIJSON", dependencies: ["APISupport", "APIYAML"]),
        // Errors with marks, their rendering, did-you-mean.
        .target(name: "APIDiagnostics", dependencies: ["APISupport", "APIYAML"]),
        // JSON Schema: compile and evaluate (every dialect apicli reads).
        .target(name: "APISchema", dependencies: ["APISupport", "APIJSON"]),
        // Redaction and secret sources.
        .target(name: "APISecrets", dependencies: ["APISupport", "APIYAML", "APIJSON", "APIDiagnostics"]),
        // Target files → Service/Target values (the decoder), catalogs, environments, selection.
        .target(name: "APITargets", dependencies: ["APISupport", "APIYAML", "APIJSON", "APIDiagnostics",
                                                   "APISchema", "APISecrets"]),
        // Target + project + environment + rules → PreparedRequest: the one factory (`Workspace`).
        .target(name: "APIEndpoint", dependencies: ["APITargets", .product(name: "Atomics", package: "swift-atomics")]),
        // The transport contract without an engine: Response, Transfer, deadlines, redirects and
        // cookies (HTTP/), output files, stream parsing, the stub transport.
        .target(name: "APITransport", dependencies: ["APIEndpoint"]),
        // Judging a response: status rules, expect:, drift, samples against expectations.
        .target(name: "APIVerdict", dependencies: ["APITransport"]),
        // The live engines: async-http-client, the keep-alive pool, h2c, WebSocket, URLSession.
        .target(name: "APILive", dependencies: [
            "APIVerdict",
            .product(name: "AsyncHTTPClient", package: "async-http-client"),
            .product(name: "NIOCore", package: nio),
            .product(name: "NIOPosix", package: nio),
            .product(name: "NIOHTTP1", package: nio),
            .product(name: "NIOWebSocket", package: nio),
            .product(name: "NIOSSL", package: "swift-nio-ssl"),
            .product(name: "NIOHTTPCompression", package: "swift-nio-extras"),
            .product(name: "NIOHTTP2", package: "swift-nio-http2"),
            .product(name: "WSClient", package: "swift-websocket"),
            .product(name: "WSCompression", package: "swift-websocket"),
            .product(name: "HTTPTypes", package: "swift-http-types"),
            .product(name: "Logging", package: "swift-log"),
        ]),
        // The one send path: Caller, flows, auth (OAuth2, Digest, SigV4), plugins, rendering as cURL.
        .target(name: "APISend", dependencies: ["APILive", .product(name: "Crypto", package: "swift-crypto")]),

        // Front stages: nothing below depends on them, and none depends on another.
        .target(name: "APICheck", dependencies: ["APISend"]),
        .target(name: "APILoad", dependencies: ["APISend",
                                                .product(name: "Histogram", package: "hdrhistogram-swift"),
                                                .product(name: "Prometheus", package: "swift-prometheus"),
                                                .product(name: "Atomics", package: "swift-atomics"),
                                                .product(name: "NIOHTTP1", package: nio)]),
        .target(name: "APIMock", dependencies: ["APISend", .product(name: "Atomics", package: "swift-atomics")]),
        .target(name: "APIRecord", dependencies: ["APISend"]),
        .target(name: "APIImport", dependencies: ["APISend"]),
        // `export openapi`: a description written from target files (reads targets, sends nothing).
        .target(name: "APIExport", dependencies: ["APITargets"]),

        // The library (issue 38): the public Swift API over the stages up to the verdict; nothing
        // of the program depends on it.
        .target(name: "APITargetsKit", dependencies: ["APIVerdict"]),
        .target(name: "APITargetsURLSession", dependencies: ["APITargetsKit"]),

        // Argument parsing, rendering and exit codes.
        // Linux: export none of the program's symbols (Sources/apicli/exports.map says why: start-up).
        // link-order.txt: the release build's code layout (the Makefile's RELEASE_FLAGS).
        .executableTarget(
            name: "apicli",
            dependencies: [
                "APICheck", "APILoad", "APIMock", "APIRecord", "APIImport", "APIExport",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            exclude: ["exports.map", "link-order.txt"],
            linkerSettings: [
                .unsafeFlags(["-Xlinker", "--version-script=\(Context.packageDirectory)/Sources/apicli/exports.map"],
                             .when(platforms: [.linux])),
            ]
        ),
        // libFuzzer harness over the YAML layer, the decoders and endpoint mapping (`make fuzz`);
        // a normal build makes it a replayer of saved inputs.
        .executableTarget(name: "apicli-fuzz", dependencies: ["APIVerdict"]),
        // The project's Python test servers (Tests/Servers/*.py) started on a free loopback port: for both test targets.
        .target(name: "TestServers", path: "Tests/TestServers"),
        .testTarget(
            name: "APICoreTests",
            dependencies: ["APICheck", "APILoad", "APIMock", "APIRecord", "APIImport", "APIExport", "TestServers"],
            resources: [.copy("Fixtures")]
        ),
        // Runs the built binary: exit codes, stdout/stderr, live calls against a local httpbin.
        // Fixtures and Malformed are read from the source tree (by #filePath), not bundled.
        // The library's tests: URLRequests against `apicli show`, URLProtocol stubs, the client.
        .testTarget(name: "APITargetsKitTests", dependencies: ["APITargetsURLSession", "APISend", "apicli", "TestServers"],
                    exclude: ["Fixtures"]),
        .testTarget(name: "apicliTests", dependencies: ["apicli", "apicli-fuzz", "TestServers"], exclude: ["Fixtures", "Malformed"]),
    ]
)
