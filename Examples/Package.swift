// swift-tools-version:6.1
import PackageDescription

// A consumer of the apicli library (docs/swift-library.md): it depends on the package by path and
// on its library products alone, as an app or a server package would. `make example-test` builds
// and tests it with a build folder of its own.
let package = Package(
    name: "HttpbinExample",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(name: "apicli", path: ".."),
    ],
    targets: [
        .target(
            name: "HttpbinExample",
            dependencies: [
                .product(name: "APITargetsKit", package: "apicli"),
                .product(name: "APITargetsURLSession", package: "apicli"),
            ],
            resources: [.copy("targets")]
        ),
        .testTarget(name: "HttpbinExampleTests", dependencies: ["HttpbinExample"]),
    ]
)
