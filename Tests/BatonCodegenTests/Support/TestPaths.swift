import Foundation

/// Paths of the package and its test fixtures.
enum TestPaths {
    static let packageRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static let fixtures = packageRoot.appendingPathComponent("Tests/BatonCodegenTests/Fixtures")
    static let golden = fixtures.appendingPathComponent("Golden")
    static let goldenOutput = packageRoot.appendingPathComponent("Tests/BatonCodegenTests/Golden/Generated")
    static let exampleSchema = packageRoot.appendingPathComponent("Sources/BatonExampleServer/Resources/schema.graphqls")

    /// A fresh temporary folder.
    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("baton-codegen-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// The folder with the built `BatonAPI` module, beside the test bundle.
    static var builtModules: URL? {
        var directory = URL(fileURLWithPath: CommandLine.arguments.first ?? "").deletingLastPathComponent()
        for _ in 0..<4 {
            let modules = directory.appendingPathComponent("Modules")
            if FileManager.default.fileExists(atPath: modules.appendingPathComponent("BatonAPI.swiftmodule").path) { return modules }
            directory.deleteLastPathComponent()
        }
        let fallback = packageRoot.appendingPathComponent(".build/debug/Modules")
        return FileManager.default.fileExists(atPath: fallback.path) ? fallback : nil
    }

    /// The built `baton` executable, beside the test bundle.
    static var batonExecutable: URL? {
        var directory = URL(fileURLWithPath: CommandLine.arguments.first ?? "").deletingLastPathComponent()
        for _ in 0..<4 {
            let candidate = directory.appendingPathComponent("baton")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            directory.deleteLastPathComponent()
        }
        let fallback = packageRoot.appendingPathComponent(".build/debug/baton")
        return FileManager.default.isExecutableFile(atPath: fallback.path) ? fallback : nil
    }
}
