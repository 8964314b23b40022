import Foundation

/// `baton generate` on the GitHub schema and its operations, with the release `baton` built
/// beside this benchmark: the median of 5 runs against the 2 s budget.
enum CodegenFigure {
    static func figure(fixtures: URL) throws -> Figure? {
        let baton = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
            .deletingLastPathComponent().appendingPathComponent("baton")
        guard FileManager.default.isExecutableFile(atPath: baton.path) else { return nil }
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("baton-bench-codegen-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: output) }
        var runs: [Duration] = []
        let clock = ContinuousClock()
        for _ in 0..<5 {
            try? FileManager.default.removeItem(at: output)
            let process = Process()
            process.executableURL = baton
            process.arguments = [
                "generate", "--schema", fixtures.appendingPathComponent("schema.graphqls").path,
                "--documents", fixtures.path + "/*.graphql", "--output", output.path,
            ]
            process.standardOutput = FileHandle.nullDevice
            let time = try clock.measure {
                try process.run()
                process.waitUntilExit()
            }
            guard process.terminationStatus == 0 else { throw BenchError("baton generate exited \(process.terminationStatus)") }
            runs.append(time)
        }
        return Figure(
            name: "codegen, GitHub schema + 3 operations", baton: runs.sorted()[2], floor: .seconds(2), floorName: "budget", target: 1.0)
    }
}
