import Foundation
import Testing

@testable import BatonCodegen
import BatonTestSupport

/// The example API's mocks, which BatonTests use, are committed as `baton generate --only-test-mocks`
/// writes them from `Sources/BatonExampleAPI/graphql/baton.json` (the build plugin never writes
/// mocks): they must be current. `BATON_UPDATE_GOLDEN=1` rewrites them.
@Suite("Committed test mocks", .ownThread)
struct CommittedMocksTests {
    @Test func exampleMocksAreCurrent() throws {
        let api = TestPaths.packageRoot.appendingPathComponent("Sources/BatonExampleAPI")
        var configuration = try CodegenConfiguration.load(path: api.appendingPathComponent("graphql/baton.json").path)
        configuration.documentGlobs = [api.path + "/graphql/*.graphql", api.appendingPathComponent("ExampleAPI.swift").path, api.path + "/Seeds/*.swift"]
        let mocks = try #require(configuration.testMocks)
        #expect(mocks.apiModule == "BatonExampleAPI")
        let expected = URL(fileURLWithPath: mocks.outputDirectory).standardizedFileURL
        #expect(expected.path == TestPaths.packageRoot.appendingPathComponent("Tests/BatonExampleMocks").standardizedFileURL.path)
        if ProcessInfo.processInfo.environment["BATON_UPDATE_GOLDEN"] == "1" { try CodeGenerator.runTestMocksOnly(configuration) }

        let output = try CodeGenerator.generate(
            schema: try SchemaLoader.load(paths: configuration.schemaPaths), sources: try DocumentCollector.collect(globs: configuration.documentGlobs),
            options: CodeGenerator.options(for: configuration))
        let committed = try FileManager.default.contentsOfDirectory(atPath: expected.path).filter { $0.hasSuffix(".swift") }
        #expect(Set(committed) == Set(output.testMockFiles.map(\.relativePath)))
        for file in output.testMockFiles {
            let text = try String(contentsOf: expected.appendingPathComponent(file.relativePath), encoding: .utf8)
            #expect(text == file.contents, "\(file.relativePath) is stale: regenerate with BATON_UPDATE_GOLDEN=1")
        }
        // Every operation of the example API has initializers.
        #expect(output.files.allSatisfy { !$0.relativePath.hasPrefix("Operations/") || $0.contents.contains("/// Data for these selections") })
    }
}
