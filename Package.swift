// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "Baton",
    platforms: [.macOS(.v14), .iOS(.v17), .tvOS(.v17), .watchOS(.v10)],
    // Only what an app uses is a product. SwiftPM resolves, for a package that depends on Baton,
    // only the dependencies some product of Baton reaches: the example server, the demo, the
    // benchmarks and the stress tool are targets without products (here, the root package, every
    // executable target is runnable all the same: `swift run baton-demo`), so Hummingbird and
    // hummingbird-websocket (and swift-metrics, which only they need) never enter a user's
    // Package.resolved (README, "Add Baton to your package", has the count).
    products: [
        .library(name: "BatonAPI", targets: ["BatonAPI"]),
        .library(name: "BatonStore", targets: ["BatonStore"]),
        .library(name: "BatonSQLite", targets: ["BatonSQLite"]),
        .library(name: "Baton", targets: ["Baton"]),
        .library(name: "BatonAsyncHTTPClient", targets: ["BatonAsyncHTTPClient"]),
        // Spans and metrics for every operation (swift-distributed-tracing, swift-metrics): a
        // product of its own, so the core products resolve neither.
        .library(name: "BatonInstrumentation", targets: ["BatonInstrumentation"]),
        .library(name: "BatonWebSocket", targets: ["BatonWebSocket"]),
        .library(name: "BatonTesting", targets: ["BatonTesting"]),
        // The example schema's generated operations, for the fuzz targets in Fuzz/ (BatonAPI and
        // the plugin only: it adds nothing to a user's dependency graph).
        .library(name: "BatonExampleAPI", targets: ["BatonExampleAPI"]),
        .library(name: "BatonCodegen", targets: ["BatonCodegen"]),
        .executable(name: "baton", targets: ["baton"]),
        // Inspects and trims a SQLite cache file (its own product: the codegen tool stays small).
        .executable(name: "baton-cache", targets: ["baton-cache"]),
        .plugin(name: "BatonCodegenPlugin", targets: ["BatonCodegenPlugin"]),
    ],
    dependencies: [
        .package(url: "https://github.com/GraphQLSwift/GraphQL", exact: "4.3.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-collections", from: "1.1.0"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket", from: "2.8.1"),
        // Up to the next minor: BatonWebSocket runs swift-websocket's frame handler through its
        // `@_spi(WSInternal)` entry point (as hummingbird-websocket does), which a minor may change.
        .package(url: "https://github.com/hummingbird-project/swift-websocket", .upToNextMinor(from: "1.6.2")),
        // Already in the graph through swift-websocket; BatonWebSocket's own handshake uses it for wss.
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.29.0"),
        // `swift package generate-documentation` (scripts/docs). No target uses it, so a package
        // that depends on Baton never resolves it.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
        // Spans and metrics for every operation (BatonInstrumentation only); both are API
        // packages with a no-op default, and swift-distributed-tracing is in the graph through
        // async-http-client as well.
        .package(url: "https://github.com/apple/swift-distributed-tracing", from: "1.3.0"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.4.0"),
    ],
    targets: [
        // What generated code and users touch: JSON, operations, selection sets, results.
        .target(name: "BatonAPI"),
        // SHA-256, for the generator's operation identifiers and the example server (no
        // cryptography library: see SHA256.swift).
        .target(name: "BatonDigest"),
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
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // `BatonTelemetry`: Baton's `OperationTelemetry` over swift-distributed-tracing and swift-metrics.
        .target(
            name: "BatonInstrumentation",
            dependencies: [
                "Baton",
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
            ]
        ),
        // Test support for apps: Mock<Type> (generated mocks' runtime) and MockNetworkTransport.
        .target(name: "BatonTesting", dependencies: ["Baton", "BatonAPI", "BatonStore"]),
        // Baton's HTTPClient over AsyncHTTPClient, for server-side users.
        .target(
            name: "BatonAsyncHTTPClient",
            dependencies: [
                "Baton",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOFoundationCompat", package: "swift-nio"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ]
        ),
        // Subscriptions (and any operation) over a WebSocket: graphql-transport-ws and the legacy
        // graphql-ws protocol, on swift-websocket's connection and frame handler with Baton's own
        // upgrade request (Origin, refused upgrades); the split transport.
        .target(
            name: "BatonWebSocket",
            dependencies: [
                "Baton",
                "BatonAPI",
                .product(name: "WSClient", package: "swift-websocket"),
                .product(name: "WSCore", package: "swift-websocket"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
                // The raw-frame fuzz entry point's pipeline (a channel without a socket).
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ]
        ),
        // A real GraphQL server on loopback for the demo and the tests.
        .target(
            name: "BatonExampleServer",
            dependencies: [
                .product(name: "GraphQL", package: "GraphQL"),
                .product(name: "Hummingbird", package: "hummingbird"),
                "BatonDigest",
                .product(name: "OrderedCollections", package: "swift-collections"),
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
            ],
            resources: [.copy("Resources/schema.graphqls")]
        ),
        // Operation types for the example schema, generated by the build plugin from graphql/.
        .target(
            name: "BatonExampleAPI",
            dependencies: ["BatonAPI"],
            exclude: ["graphql"],
            plugins: ["BatonCodegenPlugin"]
        ),
        .executableTarget(
            name: "baton-example-server",
            dependencies: [
                "BatonExampleServer",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .executableTarget(
            name: "baton-demo",
            dependencies: ["Baton", "BatonWebSocket", "BatonExampleAPI", "BatonExampleServer"]
        ),
        // The benchmark suite: `scripts/bench` builds it in release and prints the figures.
        .executableTarget(
            name: "baton-bench",
            dependencies: ["Baton", "BatonSQLite", "BatonExampleAPI", "BatonExampleServer"],
            path: "Benchmarks/Sources/baton-bench",
            exclude: ["graphql"],
            plugins: ["BatonCodegenPlugin"]
        ),
        // Publishes to a SQLite cache until killed: the crash-safety test's writer process.
        .executableTarget(name: "baton-cache-stress", dependencies: ["BatonSQLite"]),
        // `baton-cache stats|show|dump|trim FILE`: a user's look into their cache file.
        .executableTarget(
            name: "baton-cache",
            dependencies: ["BatonSQLite", "BatonStore", "BatonAPI", .product(name: "ArgumentParser", package: "swift-argument-parser")]
        ),
        // Fetches from a test's misbehaving server and prints its outcome and peak resident memory:
        // the hostile-server tests' client process (a body it failed to bound shows there).
        .executableTarget(name: "baton-hostile-client", dependencies: ["Baton", "BatonAsyncHTTPClient", "BatonExampleAPI"]),
        // Runs one operation against a misbehaving server and prints its peak resident memory:
        // the hostile-stream tests' client process (issue 30).
        .executableTarget(
            name: "baton-hostile-streams", dependencies: ["Baton", "BatonAsyncHTTPClient", "BatonExampleAPI", "BatonWebSocket"]),
        // Test support shared by the test targets: blocking work (child processes) off Swift's
        // cooperative pool.
        .target(name: "BatonTestSupport", path: "Tests/BatonTestSupport"),
        // The example API's test mocks, as `baton generate --only-test-mocks` writes them (an app
        // keeps its mocks in a target of their own too: they import BatonTesting).
        .target(name: "BatonExampleMocks", dependencies: ["BatonTesting", "BatonExampleAPI"], path: "Tests/BatonExampleMocks"),
        .testTarget(
            name: "BatonStoreTests",
            dependencies: ["BatonStore", "BatonSQLite", "BatonExampleAPI", "baton-cache-stress", "baton-cache", "BatonTestSupport"]
        ),
        // The code generator: schema, documents, validation, Swift rendering, manifest. Its own
        // SHA-256 (BatonDigest), not swift-crypto's: see the measurement there.
        .target(
            name: "BatonCodegen",
            dependencies: ["BatonDigest", .product(name: "GraphQL", package: "GraphQL")]
        ),
        // The command line: `baton generate`, `baton fetch-schema`.
        .executableTarget(
            name: "baton",
            dependencies: [
                "BatonCodegen",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // Runs `baton generate` for a target's `graphql/` folder during the build.
        .plugin(name: "BatonCodegenPlugin", capability: .buildTool(), dependencies: ["baton"]),
        .testTarget(
            name: "BatonCodegenTests",
            dependencies: ["BatonCodegen", "BatonDigest", "BatonAPI", "BatonStore", "BatonTesting", "BatonExampleServer", "BatonTestSupport"],
            exclude: ["Fixtures"]
        ),
        .testTarget(name: "BatonAPITests", dependencies: ["BatonAPI", "BatonExampleAPI", "BatonTestSupport"]),
        // The client's behaviour in scenarios over MockNetworkTransport, one file per scenario, as
        // relay-runtime tests its environment: no server.
        .testTarget(name: "BatonClientTests", dependencies: ["Baton", "BatonAPI", "BatonStore", "BatonTesting", "BatonExampleAPI", "BatonTestSupport"]),
        // The build plugin as a user's target meets it: a baton.json without "documents" and with
        // "customScalars", a schema named schema.graphql, a .gql document.
        .testTarget(name: "BatonPluginTests", dependencies: ["BatonAPI"], exclude: ["graphql"], plugins: ["BatonCodegenPlugin"]),
        // Client tests against the example server and the Python interop peer, whose operations
        // the build plugin generates from graphql/ (schema: Interop/schema.graphqls).
        .testTarget(
            name: "BatonTests",
            dependencies: [
                "Baton", "BatonAPI", "BatonSQLite", "BatonWebSocket", "BatonExampleAPI", "BatonExampleServer", "BatonAsyncHTTPClient",
                "BatonInstrumentation",
                "BatonTesting", "BatonExampleMocks", "BatonTestSupport", "baton-hostile-client", "baton-hostile-streams",
                "BatonDigest",
                // DocumentationGraphQLBlockTests validates the documentation's GraphQL in-process.
                "BatonCodegen",
                .product(name: "WSClient", package: "swift-websocket"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "InMemoryTracing", package: "swift-distributed-tracing"),
                .product(name: "MetricsTestKit", package: "swift-metrics"),
            ],
            // Documentation/Context: the DocC snippets' contexts, compiled by DocumentationCodeBlockTests.
            exclude: ["graphql", "SwiftUIStandIn", "Documentation/Context"],
            plugins: ["BatonCodegenPlugin"]
        ),
    ],
    swiftLanguageModes: [.v6]
)

// scripts/tsan runs BatonTests' concurrency and cancellation suites under ThreadSanitizer in a
// build of its own (.build-tsan). It sets BATON_TSAN_SUBSET so that build holds only what
// BatonTests needs: the other test targets and the executables no test of BatonTests runs are
// left out (SwiftPM links every test target into one bundle, so a filter alone builds them all).
if Context.environment["BATON_TSAN_SUBSET"] == "1" {
    let unused: Set<String> = [
        "BatonStoreTests", "BatonCodegenTests", "BatonAPITests", "BatonClientTests", "BatonPluginTests",
        "baton-example-server", "baton-demo", "baton-bench", "baton-cache", "baton-cache-stress",
    ]
    package.targets.removeAll { unused.contains($0.name) }
    package.products.removeAll { product in
        ((product as? Product.Executable)?.targets ?? (product as? Product.Library)?.targets ?? []).contains(where: unused.contains)
    }
}
