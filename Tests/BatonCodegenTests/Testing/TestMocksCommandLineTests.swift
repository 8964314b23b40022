import BatonTestSupport
import Foundation
import Testing

@testable import BatonCodegen

/// `baton generate` with initializers and test mocks: the mocks go to their own folder, the build
/// plugin's `--skip-test-mocks` leaves them out, `--only-test-mocks` writes nothing else.
@Suite("Test mocks on the command line", .ownThread)
struct TestMocksCommandLineTests {
    @Test func mocksAreWrittenBesideTheAPIOrAloneOrNotAtAll() async throws {
        let baton = try #require(TestPaths.batonExecutable, "needs the built baton executable")
        let generation = try Generation()
        defer { generation.remove() }
        try generation.write("graphql/Hero.graphql", "query HeroName($episode: Episode) { hero(episode: $episode) { name ... on Droid { primaryFunction } } }\n")
        try generation.write(
            "graphql/baton.json",
            """
            { "schema": "\(TestPaths.exampleSchema.path)", "documents": "*.graphql", "output": "../API",
              "selectionSetInitializers": { "definitionsNamed": ["HeroName"] },
              "testMocks": { "output": "../Mocks", "apiModule": "AppAPI" } }
            """)
        let config = generation.path("graphql/baton.json")
        let fileManager = FileManager.default

        let both = try await runProcess(baton, ["generate", "--config", config])
        #expect(both.status == 0, "\(both.stderr)")
        // The default (grouped) layout: one file for so few definitions.
        let api = try String(contentsOfFile: generation.path("API/GraphQLDefinitions00.swift"), encoding: .utf8)
        #expect(api.contains("public init(__typename: Swift.String, name: Swift.String)"))
        let droid = try String(contentsOfFile: generation.path("Mocks/Droid+Mock.swift"), encoding: .utf8)
        #expect(droid.contains("import AppAPI\n"))
        #expect(droid.contains("public let primaryFunction = BatonTesting.MockField<Swift.String>(\"primaryFunction\")"))
        #expect(fileManager.fileExists(atPath: generation.path("Mocks/Query+Mock.swift")))

        try fileManager.removeItem(atPath: generation.path("Mocks"))
        try fileManager.removeItem(atPath: generation.path("API"))
        let skipped = try await runProcess(baton, ["generate", "--config", config, "--skip-test-mocks"])
        #expect(skipped.status == 0, "\(skipped.stderr)")
        #expect(fileManager.fileExists(atPath: generation.path("API/GraphQLDefinitions00.swift")))
        #expect(!fileManager.fileExists(atPath: generation.path("Mocks")))

        try fileManager.removeItem(atPath: generation.path("API"))
        let only = try await runProcess(baton, ["generate", "--config", config, "--only-test-mocks"])
        #expect(only.status == 0, "\(only.stderr)")
        #expect(fileManager.fileExists(atPath: generation.path("Mocks/Droid+Mock.swift")))
        #expect(!fileManager.fileExists(atPath: generation.path("API")))

        let noMocks = try await runProcess(baton, ["generate", "--config", config, "--skip-test-mocks", "--only-test-mocks"])
        #expect(noMocks.status == 1)
        #expect(noMocks.stderr.contains("no test mocks to write"))
    }
}

/// Mocks compiled into the operations' module may not take a fragment's name.
@Suite("Test mock names", .ownThread)
struct TestMockNameTests {
    @Test func aMockNamedLikeAFragmentInTheSameModuleIsALocatedError() throws {
        let generation = try Generation()
        defer { generation.remove() }
        try generation.write("a.graphql", "query H { hero { ...Droid } }\nfragment Droid on Droid { primaryFunction }\n")
        var options = GenerationOptions()
        options.testMocks = TestMockOptions()
        #expect(throws: CodegenErrors.self) { try generation.generate(options: options) }
        do {
            _ = try generation.generate(options: options)
        } catch {
            #expect(String(describing: error).contains("a.graphql:2:1: error: the test mock type \"Droid\" would clash"))
        }
        options.testMocks = TestMockOptions(apiModule: "AppAPI")
        #expect(try generation.generate(options: options).testMockFiles.contains { $0.relativePath == "Droid+Mock.swift" })
    }
}
