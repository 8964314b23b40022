// swift-tools-version: 6.0
// libFuzzer targets for Baton: a package of its own, so the root package's build and `swift test`
// never build them. `scripts/fuzz` builds and runs them; see RELIABILITY.md ("Fuzzing").
import Foundation
import PackageDescription

// The root package is `..`; SwiftPM names a path dependency after its folder (`main`, `wt-fuzz`, …).
let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
let rootIdentity = root.lastPathComponent.lowercased()

// `-sanitize=fuzzer` links libFuzzer's `main`, so the targets are libraries of entry points
// (`-parse-as-library`). The libraries under test get coverage instrumentation and ASan from
// `scripts/fuzz`'s `-Xswiftc -sanitize=address -Xswiftc -sanitize-coverage=…`.
let fuzzerFlags: [SwiftSetting] = [.unsafeFlags(["-sanitize=fuzzer,address", "-parse-as-library"])]

func fuzzTarget(_ name: String, _ products: [String]) -> Target {
    .executableTarget(
        name: name,
        dependencies: products.map { .product(name: $0, package: rootIdentity) },
        swiftSettings: fuzzerFlags
    )
}

let package = Package(
    name: "BatonFuzz",
    platforms: [.macOS(.v14)],
    dependencies: [.package(path: "..")],
    targets: [
        // JSONValue(parsing:) on arbitrary bytes; what parses must serialize and parse again.
        fuzzTarget("fuzz-json", ["BatonAPI"]),
        // Parsed input decoded by generated selection sets (init(jsonObject:)) and normalized.
        fuzzTarget("fuzz-selections", ["BatonAPI", "BatonStore", "BatonExampleAPI"]),
        // A GraphQL document validated and generated against the example schema.
        fuzzTarget("fuzz-documents", ["BatonCodegen"]),
        // Schema loading from SDL, or from introspection JSON when the input starts with `{`.
        fuzzTarget("fuzz-schema", ["BatonCodegen"]),
        // A multipart/mixed incremental response read in arbitrary chunks: split, parsed, merged.
        fuzzTarget("fuzz-multipart", ["Baton", "BatonAPI"]),
        // A server's WebSocket text frame decoded in both protocols.
        fuzzTarget("fuzz-websocket", ["BatonWebSocket", "BatonAPI"]),
        // Raw WebSocket frames through the frame decoder and Baton's message rules, in arbitrary chunks.
        fuzzTarget("fuzz-websocket-frames", ["BatonWebSocket"]),
        // A subscription's event stream or multipart body read in arbitrary chunks, under small limits.
        fuzzTarget("fuzz-sse", ["Baton", "BatonAPI"]),
        // A response's error paths checked against the limit and used by the normalizer.
        fuzzTarget("fuzz-error-paths", ["Baton", "BatonAPI", "BatonExampleAPI"]),
    ],
    swiftLanguageModes: [.v6]
)
