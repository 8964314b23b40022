import BatonTestSupport
import Foundation
import Testing

@testable import BatonCodegen

/// Apollo iOS's Star Wars and Animal Kingdom operations (interfaces, unions, aliases,
/// `@include`/`@skip`, nested fragments, `@defer`, `@typePolicy`) generate and type-check.
@Suite("Apollo fixtures", .ownThread)
struct ApolloFixtureTests {
    static let apollo = TestPaths.fixtures.appendingPathComponent("apollo")

    func generate(schema: [String], documents: String, extra: String? = nil) throws -> (GeneratedOutput, URL) {
        let generation = try Generation()
        var schemaPaths = schema
        if let extra {
            try generation.write("extension.graphqls", extra)
            schemaPaths.append(generation.path("extension.graphqls"))
        }
        let loaded = try SchemaLoader.load(paths: schemaPaths)
        // With initializers for every selection set and test mocks (compiled into the same module
        // here, so they import nothing but BatonAPI and BatonTesting).
        var options = GenerationOptions()
        options.selectionSetInitializers = .all
        options.testMocks = TestMockOptions()
        let output = try CodeGenerator.generate(schema: loaded, sources: try DocumentCollector.collect(globs: [documents]), options: options)
        _ = try OutputWriter.write(output.files, to: generation.path("Generated"))
        _ = try OutputWriter.write(output.testMockFiles, to: generation.path("Generated/TestMocks"))
        return (output, generation.directory)
    }

    /// `swiftc -typecheck` of the files against the built BatonAPI and BatonTesting modules, in
    /// Swift 6 mode with warnings as errors.
    func typecheck(_ directory: URL) async throws {
        let modules = try #require(TestPaths.builtModules, "needs the built BatonAPI module")
        var files: [String] = []
        let enumerator = FileManager.default.enumerator(atPath: directory.path)
        while let relative = enumerator?.nextObject() as? String {
            if relative.hasSuffix(".swift") { files.append(directory.appendingPathComponent(relative).path) }
        }
        let swiftc = URL(fileURLWithPath: "/usr/bin/env")
        let result = try await runProcess(swiftc, ["swiftc", "-typecheck", "-swift-version", "6", "-warnings-as-errors", "-I", modules.path] + files)
        #expect(result.status == 0, "\(result.stderr.prefix(3000))")
    }

    @Test func starWarsOperationsGenerateAndTypeCheck() async throws {
        let starwars = Self.apollo.appendingPathComponent("starwars")
        let (output, directory) = try generate(
            schema: [starwars.appendingPathComponent("schema.graphqls").path], documents: starwars.path + "/**/*.graphql")
        defer { try? FileManager.default.removeItem(at: directory) }
        let names = Set(output.manifest.operations.map(\.name))
        #expect(names.isSuperset(of: ["HeroAndFriendsNames", "HeroNameConditionalInclusion", "TwoHeroes", "Search", "CreateReviewForEpisode", "ReviewAdded", "Human"]))
        #expect(output.files.contains { $0.contents.contains("public init(__typename: Swift.String") })
        #expect(output.testMockFiles.map(\.relativePath).contains("Droid+Mock.swift"))
        try await typecheck(directory.appendingPathComponent("Generated"))
    }

    @Test func animalKingdomOperationsGenerateAndTypeCheck() async throws {
        let kingdom = Self.apollo.appendingPathComponent("animalkingdom")
        let (output, directory) = try generate(
            schema: [kingdom.appendingPathComponent("AnimalSchema.graphqls").path], documents: kingdom.path + "/*.graphql",
            extra: "directive @apollo_client_ios_localCacheMutation on QUERY | MUTATION | SUBSCRIPTION | FRAGMENT_DEFINITION\n")
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(output.manifest.operations.count >= 8)
        let metadata = try #require(output.files.first { $0.relativePath == "Schema/SchemaMetadata.swift" })
        #expect(metadata.contents.contains("\"Dog\": [\"id\"],"))
        #expect(output.testMockFiles.contains { $0.relativePath == "Dog+Mock.swift" })
        try await typecheck(directory.appendingPathComponent("Generated"))
    }

    /// GitHub's schema (interfaces on interfaces, unions, custom scalars left as String) with the
    /// operations of `../shared/fixtures/github`: initializers and mocks generate and type-check.
    @Test func gitHubOperationsGenerateInitializersAndMocksThatTypeCheck() async throws {
        let github = TestPaths.packageRoot.deletingLastPathComponent().appendingPathComponent("shared/fixtures/github")
        try #require(FileManager.default.fileExists(atPath: github.path), "needs ../shared/fixtures beside the package")
        let (output, directory) = try generate(schema: [github.appendingPathComponent("schema.graphqls").path], documents: github.path + "/*.graphql")
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(output.manifest.operations.count == 3)
        #expect(output.testMockFiles.contains { $0.relativePath == "Repository+Mock.swift" })
        try await typecheck(directory.appendingPathComponent("Generated"))
    }
}
