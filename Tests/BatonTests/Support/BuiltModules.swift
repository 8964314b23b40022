import BatonTestSupport
import Foundation
import Testing

/// `swiftc` against the modules this build made, as a user's code is compiled: for code that must
/// be compiled by a test but cannot be part of a test target (seed snippets with the warnings they
/// carry as written, SwiftUI code against a stand-in, README and DocC code blocks).
enum BuiltModules {
    /// The package's root folder.
    static let packageRoot: URL = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<4 { url.deleteLastPathComponent() }
        return url
    }()

    /// The `-package-name` SwiftPM gave this package's modules (their `package` declarations are
    /// visible to a module compiled with the same): the package's identity, its folder's name in
    /// lower case, as a C identifier.
    static var packageName: String {
        String(packageRoot.lastPathComponent.lowercased().map { $0.isLetter || $0.isNumber ? $0 : "_" })
    }

    /// The build folder (`.build/debug` or the like) that holds `Modules/` and the C targets'
    /// module maps, beside the test bundle.
    static var buildFolder: URL? {
        var directory = URL(fileURLWithPath: CommandLine.arguments.first ?? "").deletingLastPathComponent()
        for _ in 0..<4 {
            if FileManager.default.fileExists(atPath: directory.appendingPathComponent("Modules/BatonExampleAPI.swiftmodule").path) {
                return directory
            }
            directory.deleteLastPathComponent()
        }
        return nil
    }

    /// The arguments that make the built modules and the C modules they import visible.
    static func searchArguments(_ build: URL) -> [String] {
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
        // CSQLite's module map is in Sources/CSQLite.
        moduleMaps.append(packageRoot.appendingPathComponent("Sources/CSQLite/module.modulemap").path)
        return ["-I", build.appendingPathComponent("Modules").path] + moduleMaps.flatMap { ["-Xcc", "-fmodule-map-file=\($0)"] }
    }

    /// A fresh temporary folder.
    static func temporaryFolder(_ name: String) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("baton-\(name)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    /// Runs `swiftc` (Swift 6 mode) with `arguments` after the built modules' search paths (and
    /// `firstSearchPaths` before them): its exit status and diagnostics.
    static func swiftc(_ arguments: [String], firstSearchPaths: [URL] = []) async throws -> (status: Int32, errors: String) {
        let build = try #require(buildFolder, "needs the built modules (swift build --build-tests)")
        let all = ["swiftc", "-swift-version", "6"] + firstSearchPaths.flatMap { ["-I", $0.path] } + searchArguments(build) + arguments
        let result = try await runProcess(URL(fileURLWithPath: "/usr/bin/env"), all)
        return (result.status, result.stderr + result.stdout)
    }

    /// `swiftc -typecheck` of `source` (as one `main.swift`) against the built modules.
    static func typecheck(_ source: String, firstSearchPaths: [URL] = []) async throws -> (status: Int32, errors: String) {
        let folder = try temporaryFolder("typecheck")
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("main.swift")
        try source.write(to: file, atomically: true, encoding: .utf8)
        return try await swiftc(["-typecheck", file.path], firstSearchPaths: firstSearchPaths)
    }
}
