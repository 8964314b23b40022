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

/// Runs a program, returning its exit status and output. It waits on a thread of its own, not on
/// Swift's cooperative pool (two threads here): a `swiftc` run would otherwise stall every other
/// test's tasks, and timing-sensitive tests (WebSockets) with them.
func runProcess(_ executable: URL, _ arguments: [String], in directory: URL? = nil) async throws -> (status: Int32, stdout: String, stderr: String) {
    try await withCheckedThrowingContinuation { continuation in
        DispatchQueue.global().async {
            continuation.resume(with: Result { try runProcessBlocking(executable, arguments, in: directory) })
        }
    }
}

private func runProcessBlocking(_ executable: URL, _ arguments: [String], in directory: URL?) throws -> (status: Int32, stdout: String, stderr: String) {
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    if let directory { process.currentDirectoryURL = directory }
    let out = Pipe()
    let err = Pipe()
    process.standardOutput = out
    process.standardError = err
    try process.run()
    let outData = out.fileHandleForReading.readDataToEndOfFile()
    let errData = err.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: outData, as: UTF8.self), String(decoding: errData, as: UTF8.self))
}
