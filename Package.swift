// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "Baton",
    platforms: [.macOS(.v14), .iOS(.v17), .tvOS(.v17), .watchOS(.v10)],
    products: [
        .library(name: "BatonAPI", targets: ["BatonAPI"]),
        .library(name: "BatonStore", targets: ["BatonStore"]),
        .library(name: "BatonSQLite", targets: ["BatonSQLite"]),
        .library(name: "Baton", targets: ["Baton"]),
        .library(name: "BatonExampleServer", targets: ["BatonExampleServer"]),
        .executable(name: "baton-example-server", targets: ["baton-example-server"]),
        .executable(name: "baton-demo", targets: ["baton-demo"]),
    ],
    dependencies: [
        .package(url: "https://github.com/GraphQLSwift/GraphQL", exact: "4.3.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-crypto", "3.12.3"..<"5.0.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
    ],
    targets: [
        // What generated code and users touch: JSON, operations, selection sets, results.
        .target(name: "BatonAPI"),
        // The normalized store: records, normalizer, reader, watchers, GC, persistence protocol.
        .target(name: "BatonStore", dependencies: ["BatonAPI", .product(name: "Logging", package: "swift-log")]),
        // SQLite persistence of records (the system's libsqlite3).
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        .target(name: "BatonSQLite", dependencies: ["BatonStore", "CSQLite"]),
        // The client: BatonClient, cache policies, the request chain, HTTP transport.
        .target(
            name: "Baton",
            dependencies: [
                "BatonAPI",
                "BatonStore",
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "HTTPTypesFoundation", package: "swift-http-types"),
            ]
        ),
        // A real GraphQL server on loopback for the demo and the tests.
        .target(
            name: "BatonExampleServer",
            dependencies: [
                .product(name: "GraphQL", package: "GraphQL"),
                .product(name: "Hummingbird", package: "hummingbird"),
            ],
            resources: [.copy("Resources/schema.graphqls")]
        ),
        // Operation types for the example schema, in the shape `baton generate` emits.
        .target(name: "BatonExampleAPI", dependencies: ["BatonAPI"]),
        .executableTarget(
            name: "baton-example-server",
            dependencies: [
                "BatonExampleServer",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .executableTarget(
            name: "baton-demo",
            dependencies: ["Baton", "BatonExampleAPI", "BatonExampleServer"]
        ),
        // The benchmark suite: `scripts/bench` builds it in release and prints the figures.
        .executableTarget(
            name: "baton-bench",
            dependencies: ["Baton", "BatonSQLite", "BatonExampleAPI", "BatonExampleServer"],
            path: "Benchmarks/Sources/baton-bench"
        ),
        // Publishes to a SQLite cache until killed: the crash-safety test's writer process.
        .executableTarget(name: "baton-cache-stress", dependencies: ["BatonSQLite"]),
        .testTarget(
            name: "BatonStoreTests",
            dependencies: ["BatonStore", "BatonSQLite", "BatonExampleAPI", "baton-cache-stress"]
        ),
        .testTarget(name: "BatonAPITests", dependencies: ["BatonAPI", "BatonExampleAPI"]),
        .testTarget(
            name: "BatonTests",
            dependencies: [
                "Baton", "BatonAPI", "BatonSQLite", "BatonExampleAPI", "BatonExampleServer",
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
