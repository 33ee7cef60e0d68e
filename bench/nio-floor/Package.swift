// swift-tools-version:6.0
// bench/nio-floor: the floor of a closed-model HTTP/1.1 load on SwiftNIO (bench/nio-floor.sh runs it).
import PackageDescription

let package = Package(
    name: "nio-floor",
    dependencies: [.package(url: "https://github.com/apple/swift-nio", from: "2.101.2")],
    targets: [
        .executableTarget(name: "nio-floor",
                          dependencies: [.product(name: "NIOPosix", package: "swift-nio"), .product(name: "NIOCore", package: "swift-nio")],
                          // as apicli's release build (Makefile RELEASE_FLAGS)
                          swiftSettings: [.unsafeFlags(["-enforce-exclusivity=unchecked"])]),
    ]
)
