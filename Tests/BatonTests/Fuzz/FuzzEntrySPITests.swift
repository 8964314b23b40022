import BatonTestSupport
import Foundation
import Testing

/// The fuzz targets' entry points are not API (issue 16, item 10): a plain `import` does not see
/// them, `@_spi(Fuzzing) import` does. Checked by type-checking two small files against the
/// built modules with `swiftc`, as a user's code would be.
@Suite("Fuzz entry points are SPI")
struct FuzzEntrySPITests {
    /// The build folder (`.build/debug` or the like) that holds `Modules/` and the C targets'
    /// module maps, beside the test bundle.
    static var buildFolder: URL? {
        var directory = URL(fileURLWithPath: CommandLine.arguments.first ?? "").deletingLastPathComponent()
        for _ in 0..<4 {
            if FileManager.default.fileExists(atPath: directory.appendingPathComponent("Modules/BatonWebSocket.swiftmodule").path) {
                return directory
            }
            directory.deleteLastPathComponent()
        }
        return nil
    }

    /// `swiftc -typecheck` of `source` against the built modules: its exit status and errors.
    static func typecheck(_ source: String) async throws -> (status: Int32, errors: String) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("baton-spi-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("main.swift")
        try source.write(to: file, atomically: true, encoding: .utf8)
        return try await typecheck(files: [file])
    }

    /// `swiftc -typecheck` of `files` (one module; a `main.swift` among them is its top-level
    /// code) against the built modules: its exit status and errors.
    static func typecheck(files: [URL]) async throws -> (status: Int32, errors: String) {
        let build = try #require(buildFolder, "needs the built modules")
        // The C targets (NIO's, swift-atomics') are found through their module maps: those SwiftPM
        // wrote into the build folder, and those the dependencies ship in their `include` folders.
        var moduleMaps = (try? FileManager.default.contentsOfDirectory(atPath: build.path))?
            .filter { $0.hasSuffix(".build") }
            .map { build.appendingPathComponent($0).appendingPathComponent("module.modulemap").path }
            .filter { FileManager.default.fileExists(atPath: $0) } ?? []
        var scratch = build
        for _ in 0..<3 where !FileManager.default.fileExists(atPath: scratch.appendingPathComponent("checkouts").path) {
            scratch.deleteLastPathComponent()
        }
        let checkouts = scratch.appendingPathComponent("checkouts")
        let shipped = FileManager.default.enumerator(atPath: checkouts.path)
        while let relative = shipped?.nextObject() as? String {
            if relative.hasSuffix("/include/module.modulemap") && relative.contains("/Sources/") {
                moduleMaps.append(checkouts.appendingPathComponent(relative).path)
            }
        }
        let library = files.contains { $0.lastPathComponent == "main.swift" } ? [] : ["-parse-as-library"]
        let arguments =
            ["swiftc", "-typecheck", "-swift-version", "6", "-I", build.appendingPathComponent("Modules").path] + library
            + moduleMaps.flatMap { ["-Xcc", "-fmodule-map-file=\($0)"] } + files.map(\.path)
        let result = try await runProcess(URL(fileURLWithPath: "/usr/bin/env"), arguments)
        return (result.status, result.stderr)
    }

    @Test func aPlainImportDoesNotSeeTheFuzzEntries() async throws {
        let result = try await Self.typecheck(
            """
            import Baton
            import BatonWebSocket
            _ = _IncrementalDeliveryFuzzEntry.self
            _ = _WebSocketMessageFuzzEntry.self
            """)
        #expect(result.status != 0)
        #expect(result.errors.contains("cannot find '_IncrementalDeliveryFuzzEntry' in scope"), "\(result.errors)")
        #expect(result.errors.contains("cannot find '_WebSocketMessageFuzzEntry' in scope"), "\(result.errors)")
    }

    @Test func anSPIImportSeesThem() async throws {
        let result = try await Self.typecheck(
            """
            @_spi(Fuzzing) import Baton
            @_spi(Fuzzing) import BatonWebSocket
            _ = _IncrementalDeliveryFuzzEntry.splitInput([])
            _ = _WebSocketMessageFuzzEntry.decode("{}", protocol: .graphqlTransportWS)
            """)
        #expect(result.status == 0, "\(result.errors)")
    }

    /// Issue 30, item 12: the libFuzzer targets in `Fuzz/Sources/` are built only by
    /// `scripts/fuzz` (too long for CI), so nothing noticed when they stopped building. Each
    /// target's sources are type-checked here against the test build's modules, as the fuzz build
    /// compiles them: an entry point renamed or a module split breaks this test, not the next
    /// fuzzing session. (What each target runs is run in CI by the fuzz smoke tests.)
    @Test func everyFuzzTargetTypeChecksAgainstTheBuiltModules() async throws {
        let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../../Fuzz/Sources").standardizedFileURL
        let targets = try FileManager.default.contentsOfDirectory(atPath: sources.path).filter { $0.hasPrefix("fuzz-") }.sorted()
        #expect(targets.count >= 9, "\(targets)")
        for target in targets {
            let folder = sources.appendingPathComponent(target)
            let files = try FileManager.default.contentsOfDirectory(atPath: folder.path)
                .filter { $0.hasSuffix(".swift") }.map { folder.appendingPathComponent($0) }
            let result = try await Self.typecheck(files: files)
            #expect(result.status == 0, "\(target) does not build: \(result.errors)")
        }
    }
}
