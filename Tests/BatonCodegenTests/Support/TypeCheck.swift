import BatonTestSupport
import Foundation
import Testing

@testable import BatonCodegen

/// Type-checks generated files with swiftc in Swift 6 mode, warnings as errors, against the
/// built `BatonAPI` module: what the generated code costs a user's build, and whether it compiles.
enum TypeCheck {
    /// `uses`: Swift sources compiled with the generated files (code that reads the generated
    /// types as an app would), by file name.
    static func generated(_ output: GeneratedOutput, moduleName: String = "Names", uses: [String: String] = [:]) async throws {
        let modules = try #require(TestPaths.builtModules, "needs the built BatonAPI module")
        let directory = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        _ = try OutputWriter.write(output.files, to: directory.path)
        var files = output.files.map { directory.appendingPathComponent($0.relativePath).path }
        for (name, text) in uses.sorted(by: { $0.key < $1.key }) {
            let url = directory.appendingPathComponent("Uses").appendingPathComponent(name)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try text.write(to: url, atomically: true, encoding: .utf8)
            files.append(url.path)
        }
        let result = try await runProcess(
            URL(fileURLWithPath: "/usr/bin/env"),
            ["swiftc", "-typecheck", "-swift-version", "6", "-warnings-as-errors", "-module-name", moduleName, "-I", modules.path] + files)
        #expect(result.status == 0, "\(result.stderr.prefix(4000))")
    }
}
