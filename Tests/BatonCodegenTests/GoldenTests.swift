import BatonAPI
import Foundation
import Testing

@testable import BatonCodegen
import BatonTestSupport

/// The generated code of a small schema, compared file by file with `Golden/Generated/`, which
/// is compiled into this target (see GeneratedCodeTests for it running).
@Suite("Golden files", .ownThread)
struct GoldenTests {
    static func generate() throws -> GeneratedOutput {
        let schema = try SchemaLoader.load(paths: [TestPaths.golden.appendingPathComponent("schema.graphqls").path])
        let sources = try DocumentCollector.collect(globs: [TestPaths.golden.path + "/*.graphql"])
        var options = GenerationOptions(namespace: "GoldenAPI", customScalars: ["DateTime": "GoldenDate"])
        options.selectionSetInitializers = .all
        options.testMocks = TestMockOptions()
        return try CodeGenerator.generate(schema: schema, sources: sources, options: options)
    }

    /// The API files and the test mocks (under `TestMocks/`), as the golden folder holds them.
    static func goldenFiles(_ output: GeneratedOutput) -> [GeneratedFile] {
        output.files + output.testMockFiles.map { GeneratedFile(relativePath: "TestMocks/" + $0.relativePath, contents: $0.contents) }
    }

    @Test func generatedCodeMatchesTheGoldenFiles() throws {
        let output = try Self.generate()
        if ProcessInfo.processInfo.environment["BATON_UPDATE_GOLDEN"] == "1" {
            try? FileManager.default.removeItem(at: TestPaths.goldenOutput)
            _ = try OutputWriter.write(Self.goldenFiles(output), to: TestPaths.goldenOutput.path)
        }
        var expectedPaths: Set<String> = []
        let enumerator = FileManager.default.enumerator(atPath: TestPaths.goldenOutput.path)
        while let relative = enumerator?.nextObject() as? String {
            if relative.hasSuffix(".swift") { expectedPaths.insert(relative) }
        }
        #expect(Set(Self.goldenFiles(output).map(\.relativePath)) == expectedPaths)
        for file in Self.goldenFiles(output) {
            let expected = try String(contentsOf: TestPaths.goldenOutput.appendingPathComponent(file.relativePath), encoding: .utf8)
            #expect(file.contents == expected, "\(file.relativePath) differs from its golden file")
        }
    }

    @Test func outputIsDeterministic() throws {
        let first = try Self.generate()
        let second = try Self.generate()
        #expect(first == second)
    }

    @Test func unchangedFilesAreNotRewritten() throws {
        let output = try Self.generate()
        let directory = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let first = try OutputWriter.write(output.files, to: directory.path)
        #expect(first.written.count == output.files.count)
        let stale = directory.appendingPathComponent("Operations/OldQuery.swift")
        try (GeneratedFile.header + "\n").write(to: stale, atomically: true, encoding: .utf8)
        let handWritten = directory.appendingPathComponent("Mine.swift")
        try "// mine\n".write(to: handWritten, atomically: true, encoding: .utf8)
        let second = try OutputWriter.write(output.files, to: directory.path)
        #expect(second.written.isEmpty)
        #expect(second.unchanged.count == output.files.count)
        #expect(second.removed == ["Operations/OldQuery.swift"])
        #expect(FileManager.default.fileExists(atPath: handWritten.path))
    }

    @Test func everyFileStartsWithTheGeneratedHeader() throws {
        for file in Self.goldenFiles(try Self.generate()) {
            #expect(file.contents.hasPrefix(GeneratedFile.header + "\nimport BatonAPI\n"))
        }
    }
}
